"""End to end: functions written with torch.* / F.* / tensor methods, compiled by
ember.script and called with numpy arrays, against the same function run by CPython
on torch tensors."""

from __future__ import annotations

from typing import List, Tuple

import numpy as np
import pytest

import ember
from tests.unit.ops.util import same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = [pytest.mark.filterwarnings("error::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]
RNG = np.random.default_rng(13)


def rand(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def check(fn, *args, atol=1e-5):
    """ember.script(fn)(*numpy args) equals fn(*torch args) (arguments are copied: in-place
    ops must not leak between the two runs)."""
    got = ember.script(fn)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with torch.no_grad():
        want = fn(*[to_torch(a) for a in args])
    same(got, want, rtol=1e-5, atol=atol)
    return got


def arith(x: torch.Tensor, i: torch.Tensor, n: int) -> torch.Tensor:
    y = 2.0 * x - x / 3 + i + n
    z = (i // 2) * 3 % 5 + (i > 1).long() - 1
    w = torch.where(y > 0, y, torch.zeros_like(y)) + z / 2 + (i == 2).float() * 0.5
    return torch.clamp(w ** 2, max=40.0) - torch.maximum(x, i.float()) + 1 / (1 + x.abs())


def test_arithmetic_promotion_and_where():
    check(arith, rand(3, 4), RNG.integers(0, 5, (4,)), 3)


def reductions(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor,
                                        torch.Tensor]:
    v, idx = torch.max(x, 1, keepdim=True)
    s = x.sum((0, 2)) + x.mean(-1).sum(0) + x.std(1, True).sum() + x.norm(2, 1).sum()
    a = x.argmax(-1) + x.argmin(0, keepdim=True).sum()
    m = (x > 0).any(2).long().sum(1) + x.amax([0, 1]).long().sum()
    return v + idx, s, a, m


def test_reductions_and_tuple_results():
    check(reductions, rand(2, 3, 4))


def shapes(x: torch.Tensor) -> List[torch.Tensor]:
    n, c, h = x.shape
    y = x.view(n, -1).reshape(-1, c, h).permute(2, 0, 1).transpose(0, 1).contiguous()
    z = torch.flatten(y, 1).unsqueeze(0).squeeze(0).unflatten(1, (h, -1))
    parts = torch.chunk(z, 2, 1) + torch.split(z, [1, z.size(1) - 1], 1)
    out = [torch.cat([parts[0], parts[1]], 1), torch.stack([y[0], y[1]], -1)]
    out.append(x.expand(2, -1, -1, -1).repeat(1, 1, 2, 1).flip([1]))
    out.append(torch.cat(torch.unbind(x, 0), -1).t())
    return out


def test_shape_operators():
    check(shapes, rand(2, 3, 4))


def indexing(x: torch.Tensor, idx: torch.Tensor, k: int) -> torch.Tensor:
    y = x.clone()
    y[0, :, 1] = -1.0
    y[:, -1] = y[:, 0] * 2
    y[y > 1.5] = 1.5
    y[1, 1:, ::2] += 3
    a = y[..., k] + y[1][None, :, -1]
    b = y[idx, 1:3] - y[:, None, 2, :2].sum()
    return torch.cat([a.flatten(), b.flatten(), y[:, 1::2, k:].flatten()])


def test_indexing_and_assignment():
    check(indexing, rand(3, 4, 5), np.array([2, 0, 2]), 2)


def test_index_errors_are_torch_exceptions():
    def f(x: torch.Tensor, i: int) -> torch.Tensor:
        return x[i]
    g = ember.script(f)
    with pytest.raises(IndexError, match="out of bounds"):
        g(rand(3), 5)

    def h(x: torch.Tensor) -> torch.Tensor:
        return x.view(5, -1)
    with pytest.raises(RuntimeError, match="invalid for input of size"):
        ember.script(h)(rand(3, 4))


def inplace(x: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    y = x.clone()
    F.relu(y, inplace=True)
    y.add_(1.0).mul_(2)
    z = x.clone()
    z.relu_()
    z.clamp_(0.5, 1.0)
    z.masked_fill_(m, -3.0)
    w = x.clone()
    F.hardswish(w, inplace=True)
    return y + z + w


def test_inplace_operators_mutate():
    check(inplace, rand(4, 5), RNG.random((4, 5)) > 0.5)


def creation(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.zeros(2, 3, dtype=torch.int32), torch.ones((2,)), torch.full((2, 2), 7),
            torch.arange(5) * 2, torch.arange(1, 4, 0.5), torch.linspace(0, 1, 5),
            torch.eye(3), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.zeros_like(x),
            torch.ones_like(x, dtype=torch.float64), x.new_zeros(3), torch.full_like(x, 2.5),
            x.long(), x.int().float(), x.to(torch.float64), x.type_as(torch.zeros(1).long()),
            x.double().half().float(), (x > 0).bool().long()]


def test_creation_and_conversion():
    check(creation, rand(2, 3) * 3)


def queries(x: torch.Tensor) -> float:
    n = x.size(0) + x.size()[1] + x.shape[-1] + x.dim() + x.numel() + len(x)
    return float(n) + x.sum().item() + float(x[0, 0, 0])


def test_sizes_and_values():
    check(queries, rand(2, 3, 4))


def cnn(x: torch.Tensor, w1: torch.Tensor, w2: torch.Tensor, mean: torch.Tensor,
        var: torch.Tensor, fw: torch.Tensor) -> torch.Tensor:
    y = F.conv2d(x, w1, None, 1, 1)
    y = F.relu(F.batch_norm(y, mean, var, None, None, False, 0.1, 1e-5))
    y = F.max_pool2d(y, 2)
    y = F.conv2d(y, w2, None, stride=2, padding=1, groups=4)
    y = F.adaptive_avg_pool2d(F.hardswish(y), 1)
    return F.linear(torch.flatten(y, 1), fw)


def test_small_cnn():
    check(cnn, rand(2, 3, 16, 16), rand(8, 3, 3, 3), rand(8, 2, 3, 3), rand(8),
          np.abs(rand(8)) + 0.5, rand(5, 8))


def rnn(x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor,
        params: List[torch.Tensor]) -> torch.Tensor:
    out, h, c = torch.lstm(x, [h0, c0], params, True, 1, 0.0, False, True, True)
    return torch.cat([out[:, -1], h[0], c[1]], -1)


def test_lstm_through_torch_lstm():
    torch.manual_seed(0)
    m = torch.nn.LSTM(6, 5, batch_first=True, bidirectional=True)
    params = [p.detach().numpy().copy() for p in m._flat_weights]
    check(rnn, rand(3, 4, 6), rand(2, 3, 5), rand(2, 3, 5), params)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    b = F.softmax(q @ k.transpose(-2, -1) / 8 ** 0.5, dim=-1) @ v
    return F.layer_norm(a + b, [8]) + F.gelu(a, approximate="tanh") + F.log_softmax(b, -1)


def test_attention_pieces():
    check(attention, rand(2, 2, 5, 8), rand(2, 2, 5, 8), rand(2, 2, 5, 8))
