"""Activation backward kernels (ops/tensor_act_grad.py): each equal to torch's backward,
over several blocks and at the branch points, and differentiable again (grad of grad)."""

import numpy as np
import pytest

import ember
from ember.ops import tensor_act_grad as AG

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


def _inputs(n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * 4).astype(dtype)
    x[:6] = [-3.0, 3.0, -3.0000002, 2.9999998, 0.0, -0.0]
    g = rng.standard_normal(n).astype(dtype)
    return g, x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [7, AG.BLOCK * 2 + 5])
def test_hardswish_backward_equals_torch(dtype, n):
    g, x = _inputs(n, dtype)
    want = torch.ops.aten.hardswish_backward(torch.tensor(g), torch.tensor(x)).numpy()
    got = AG.hardswish_backward(g, x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_hardswish_backward_shapes():
    # a non-contiguous operand, a broadcast one, a 0-d one
    g, x = _inputs(2 * 3 * 4, np.float32)
    xt = x.reshape(2, 3, 4).transpose(1, 0, 2)
    for gg in (g.reshape(3, 2, 4), g[:4]):
        want = torch.ops.aten.hardswish_backward(torch.tensor(gg).expand(3, 2, 4),
                                                 torch.tensor(xt))
        np.testing.assert_array_equal(AG.hardswish_backward(gg, xt), want.numpy())
    got = AG.hardswish_backward(np.array(2.0, np.float32), np.array(1.0, np.float32))
    assert got.shape == () and got == np.float32(2) * (np.float32(1) / np.float32(3) + np.float32(0.5))


def hswish_scaled(x: Tensor, s: float) -> Tensor:
    return (F.hardswish(x * s) * x).sum()


def test_hardswish_grad_of_grad_equals_torch():
    # d/ds, then its gradient w.r.t. x and s: through hardswish_backward's own rule
    x = np.random.default_rng(1).standard_normal(40) * 2
    got = ember.grad(ember.grad(hswish_scaled, 1), (0, 1))(x, 1.7)
    tx = torch.tensor(x, requires_grad=True)
    ts = torch.tensor(1.7, dtype=torch.float64, requires_grad=True)
    (gs,) = torch.autograd.grad(hswish_scaled(tx, ts), ts, create_graph=True)
    gs.backward()
    np.testing.assert_allclose(got[0], tx.grad.numpy(), rtol=1e-7, atol=1e-12)
    assert got[1] == pytest.approx(ts.grad.item(), rel=1e-7)
