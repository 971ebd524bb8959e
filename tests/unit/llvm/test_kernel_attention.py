"""Native self-attention of one sequence (ember/llvm/kernel_attention.py) against the VM's
numpy kernel, and the calls it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402
from ember.llvm.kernel_attention import softmax_rows  # noqa: E402


class _Attn(torch.nn.Module):
    def __init__(self, e, heads, bias, need_weights=False, mask=False):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(e, heads, bias=bias)
        self.need_weights = need_weights
        self.mask = mask

    def forward(self, x):
        m = None
        if self.mask:
            m = torch.triu(torch.ones(x.shape[0], x.shape[0], dtype=torch.bool), 1)
        return self.mha(x, x, x, need_weights=self.need_weights, attn_mask=m)[0]


def _run(m, x):
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0) and k[0] == "tensor.multi_head_attention"}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.abs(got - want).max() <= 1e-5 * (1 + np.abs(want).max())
    return used


@pytest.mark.parametrize("e,heads,length", [(16, 2, 5), (24, 3, 17), (32, 1, 40), (8, 8, 3)])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batch", [None, 1, 3])
def test_self_attention_runs_natively(e, heads, length, bias, batch):
    torch.manual_seed(1)
    m = _Attn(e, heads, bias).eval()
    shape = (length, e) if batch is None else (length, batch, e)
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    assert _run(m, x) == {("tensor.multi_head_attention", "native"): 1}


def test_sequences_apart_are_read_in_place():
    torch.manual_seed(1)
    m = _Attn(16, 2, True).eval()
    x = np.random.default_rng(2).standard_normal((3, 7, 16)).astype(np.float32)
    assert _run(m, x.transpose(1, 0, 2)) == {("tensor.multi_head_attention", "native"): 1}


@pytest.mark.parametrize("kw,shape", [
    ({"need_weights": True}, (6, 1, 16)),
    ({"mask": True}, (6, 1, 16)),
    ({}, (6, 2, 32)),                     # elements apart (x[..., ::2])
])
def test_other_calls_run_the_kernel(kw, shape):
    torch.manual_seed(3)
    m = _Attn(16, 2, True, **kw).eval()
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    if shape[-1] == 32:
        x = x[..., ::2]
    assert _run(m, x) == {("tensor.multi_head_attention", "numpy"): 1}


@pytest.mark.parametrize("batch", [1, 5])
def test_transformer_layer_is_native_and_close_to_torch(batch):
    torch.manual_seed(5)
    layer = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True).eval()
    x = np.random.default_rng(6).standard_normal((batch, 9, 32)).astype(np.float32)
    assert _run(layer, x) == {("tensor.multi_head_attention", "native"): 1}
    nat = ember.script(layer, backend="llvm")
    # the output lies as the batch-first input does: the residual add is native too
    assert "numpy" not in nat.native_report(x).totals()
    want = layer(torch.from_numpy(x)).detach().numpy()
    assert np.abs(nat(x) - want).max() <= 1e-4


def test_softmax_rows_matches_numpy():
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((37, 53)) * 20).astype(np.float32)
    x[3, :5] = -np.inf
    x[4, 7] = 80.0
    shift = x.astype(np.float64) - x.max(axis=-1, keepdims=True)
    want = np.exp(shift)
    want /= want.sum(axis=-1, keepdims=True)
    got = x.copy()
    softmax_rows(got)
    # x - max is rounded to float32 first (as the numpy kernel does): its error, up to
    # half an ulp of |x - max|, is amplified by exp; then a few ulps for exp and the sum
    ulp = np.spacing(want.astype(np.float32))
    amplified = want * np.where(np.isfinite(shift), np.abs(shift), 0.0) * 2.0 ** -24
    bound = 4 * ulp + amplified + 1e-45
    assert np.all(np.abs(got - want) <= bound)
    assert np.allclose(got.sum(axis=-1), 1.0, atol=1e-6)


class _Softmax(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = torch.nn.Linear(12, 12)
        self.dim = dim

    def forward(self, x):
        return torch.softmax(self.fc(x), self.dim)


def _softmax_used(dim, x):
    m = _Softmax(dim).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k[1] for k, v in kernels.COUNTS.items()
            if k[0] == "tensor.softmax" and v != before.get(k, 0)}
    return got, vm(x), used


@pytest.mark.parametrize("shape", [(5, 12), (2, 3, 12), (1, 12)])
def test_softmax_over_the_last_dim_runs_natively(shape):
    torch.manual_seed(7)
    x = (np.random.default_rng(8).standard_normal(shape) * 4).astype(np.float32)
    got, want, used = _softmax_used(-1, x)
    assert used == {"native"}
    assert got.dtype == np.float32 and got.shape == want.shape
    # the native product's sum order and the rows' own max (the kernel shifts by the
    # global one) round differently: close, and each within its bound (test below)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-9)
    assert np.allclose(got.sum(-1), 1.0, atol=1e-6)


def test_softmax_edges_and_other_dims():
    rows = np.array([[0.0, -np.inf, 1.0], [-np.inf] * 3, [np.nan, 0.0, 1.0],
                     [1e30, 0.0, -1e30]], np.float32)
    from ember.llvm.kernel_attention import NativeSoftmax
    from ember.ops.tensor_activation import softmax

    native = NativeSoftmax(softmax)
    got, want = native(rows, -1), softmax(rows, -1)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert np.allclose(got[ok], want[ok], rtol=1e-6, atol=0)
    x = np.random.default_rng(1).standard_normal((4, 12)).astype(np.float32)
    _, _, used = _softmax_used(0, x)
    assert used == {"numpy"}


def test_softmax_within_two_ulp_of_the_correctly_rounded_value():
    from ember.llvm.kernel_attention import NativeSoftmax
    from ember.ops.tensor_activation import softmax

    rng = np.random.default_rng(3)
    for scale, cols in ((1, 7), (10, 1000), (30, 33)):
        x = (rng.standard_normal((300_000 // cols, cols)) * scale).astype(np.float32)
        got = NativeSoftmax(softmax)(x, -1)
        xd = x.astype(np.float64)
        e = np.exp(xd - xd.max(-1, keepdims=True))
        want = (e / e.sum(-1, keepdims=True)).astype(np.float32)
        ok = want > 1e-37
        assert np.all(np.abs(got.astype(np.float64) - want)[ok] <= 2 * np.spacing(want[ok]))
