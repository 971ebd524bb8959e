"""The native depthwise conv2d (ember/llvm/kernel_conv.py) against the VM's numpy kernel,
and the convolutions it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402


def _pair(conv):
    torch.manual_seed(0)
    m = torch.nn.Sequential(conv).eval()
    return ember.script(m), ember.script(m, backend="llvm")


def _check(conv, x, where):
    vm, nat = _pair(conv)
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert got.shape == want.shape and got.dtype == want.dtype
    # taps summed in another order than the kernel's BLAS product: bound by the terms
    w = conv.weight.detach().numpy().astype(np.float64)
    terms = np.abs(vm_conv_abs(x, w, conv))
    assert np.all(np.abs(got.astype(np.float64) - want) <= 1e-6 * (terms + 1))
    assert used == {("tensor.conv2d", where): 1}


def vm_conv_abs(x, w, conv):
    """sum |w| * |x| per output (the scale of a sum's rounding), with torch in float64."""
    with torch.no_grad():
        return torch.nn.functional.conv2d(
            torch.from_numpy(np.abs(x).astype(np.float64)), torch.from_numpy(np.abs(w)),
            None, conv.stride, conv.padding, conv.dilation, conv.groups).numpy()


@pytest.mark.parametrize("c, k, pad, dil, bias", [
    (8, 3, 1, 1, True), (5, 3, 0, 1, False), (3, 5, 2, 2, True), (4, 3, 3, 1, True),
    (6, (2, 3), (1, 0), 1, True), (4, 3, "same", 2, False)])
def test_depthwise_runs_natively(c, k, pad, dil, bias):
    torch.manual_seed(1)
    conv = torch.nn.Conv2d(c, c, k, padding=pad, dilation=dil, groups=c, bias=bias)
    x = np.random.default_rng(2).standard_normal((2, c, 11, 9)).astype(np.float32)
    _check(conv, x, "native")


@pytest.mark.parametrize("make", [
    lambda: torch.nn.Conv2d(4, 8, 3, groups=4),                            # multiplier 2
    lambda: torch.nn.Conv2d(4, 6, 3, groups=2, padding=1),                 # grouped
    lambda: torch.nn.Conv2d(4, 4, 3),                                      # dense
    lambda: torch.nn.Conv2d(4, 4, 1, groups=4),                            # one tap
    lambda: torch.nn.Conv2d(4, 37, 1, bias=False),                         # pointwise
    lambda: torch.nn.Conv2d(4, 13, 1, padding=1),                          # padded 1x1
    lambda: torch.nn.Conv2d(4, 9, (2, 5), padding=(2, 1), dilation=(2, 1)),
    lambda: torch.nn.Conv2d(4, 17, 3, padding="same", dilation=2),
])
def test_dense_and_grouped_run_natively(make):
    torch.manual_seed(3)
    conv = make()
    x = np.random.default_rng(4).standard_normal((3, 4, 8, 37)).astype(np.float32)
    _check(conv, x, "native")


@pytest.mark.parametrize("make, dtype", [
    (lambda: torch.nn.Conv2d(4, 4, 3, stride=2, groups=4), np.float32),   # strided
    (lambda: torch.nn.Conv2d(4, 8, 3, stride=2), np.float32),              # strided dense
    (lambda: torch.nn.Conv2d(4, 4, 3, groups=4).double(), np.float64),     # float64
    (lambda: torch.nn.Conv2d(4, 4, 3).double(), np.float64),               # float64 dense
])
def test_other_convolutions_run_the_kernel(make, dtype):
    torch.manual_seed(3)
    conv = make()
    x = np.random.default_rng(4).standard_normal((1, 4, 8, 8)).astype(dtype)
    _check(conv, x, "numpy")


def test_dense_unbatched_and_non_contiguous():
    torch.manual_seed(7)
    conv = torch.nn.Conv2d(3, 5, 3, padding=1)
    vm, nat = _pair(conv)
    x = np.random.default_rng(8).standard_normal((3, 7, 6)).astype(np.float32)
    assert np.abs(nat(x) - vm(x)).max() <= 1e-5
    xt = np.random.default_rng(9).standard_normal((2, 3, 6, 7)).astype(np.float32)
    xt = xt.transpose(0, 1, 3, 2)
    assert np.abs(nat(xt) - vm(xt)).max() <= 1e-5


def test_unbatched_and_errors_are_the_kernels():
    torch.manual_seed(5)
    conv = torch.nn.Conv2d(3, 3, 3, padding=1, groups=3)
    vm, nat = _pair(conv)
    x = np.random.default_rng(6).standard_normal((3, 6, 6)).astype(np.float32)
    assert np.abs(nat(x) - vm(x)).max() <= 1e-5
    bad = np.zeros((1, 4, 6, 6), np.float32)
    with pytest.raises(Exception) as want:
        vm(bad)
    with pytest.raises(type(want.value)) as got:
        nat(bad)
    assert str(got.value).splitlines()[0] == str(want.value).splitlines()[0]


_ACTS = {"relu": torch.nn.ReLU, "hardswish": torch.nn.Hardswish,
         "hardsigmoid": torch.nn.Hardsigmoid}


@pytest.mark.parametrize("act", sorted(_ACTS))
@pytest.mark.parametrize("conv, where, epilogue, bn", [
    (lambda: torch.nn.Conv2d(3, 10, 3, padding=1), "native", True, False),
    (lambda: torch.nn.Conv2d(3, 10, 3, padding=1), "native", True, True),  # BN folded
    (lambda: torch.nn.Conv2d(4, 4, 3, padding=1, groups=4), "native", True, False),
    (lambda: torch.nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False), "native", True,
     True),
    (lambda: torch.nn.Conv2d(3, 10, 3, stride=2), "numpy", False, False),
])
def test_conv_activation_pairs(conv, where, epilogue, bn, act, tmp_path):
    """passes/fuse_epilogue pairs a convolution with its activation under the LLVM
    backend; the pair runs as one native product (or depthwise loop) with the activation
    in its epilogue where it can, else its two steps through their twins; a saved artifact
    runs the pair on the VM."""
    torch.manual_seed(11)
    layer = conv()
    norm = [torch.nn.BatchNorm2d(layer.out_channels)] if bn else []
    m = torch.nn.Sequential(layer, *norm, _ACTS[act]()).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    assert "tensor.fused" in nat.graph and "tensor.fused" not in vm.graph
    x = np.random.default_rng(12).standard_normal((2, layer.in_channels, 9, 10))
    x = x.astype(np.float32) * 3
    before = dict(kernels.COUNTS)
    got = nat(x)
    used = {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}
    want = vm(x)
    assert used.get(("tensor.conv2d", where)) == 1
    assert used.get((f"tensor.{act}", "native")) == (1 if epilogue else None)
    terms = vm_conv_abs(x, layer.weight.detach().numpy().astype(np.float64), layer)
    scale = 1.0 + 2.0 * bn  # a folded batch norm scales the weights (by about 1 here)
    assert got.shape == want.shape and np.all(np.abs(got - want) <= 1e-6 * scale * (terms + 1))
    if act == "relu":
        assert not np.signbit(got).any()
    path = tmp_path / "pair.ember"
    nat.save(path)
    from ember import mobile
    assert np.array_equal(mobile.load(path)(x), want)


def test_epilogue_activations_are_the_kernels_bits():
    """An activation in the epilogue computes the numpy kernel's float32 operations: on
    the same convolution output, bit-identical (NaN, infinities and the clip edges)."""
    from ember.llvm.kernel_conv import _depthwise, _plan
    from ember.ops import tensor_activation as A
    rng = np.random.default_rng(15)
    x = rng.standard_normal((1, 3, 6, 7)).astype(np.float32) * 4
    x[0, 0, 1, :4] = [np.nan, np.inf, -np.inf, -3.0]
    x[0, 1, 2, :3] = [3.0, -0.0, 1e-30]
    w = np.zeros((3, 1, 3, 3), np.float32)
    w[:, 0, 1, 1] = 1.0  # the identity tap: the product is x itself
    plan = _plan(x, w, None, [1, 1], [1, 1], [1, 1], 3)
    base = _depthwise(x, w, None, plan, None)
    with np.errstate(all="ignore"):
        for act in ("relu", "hardswish", "hardsigmoid"):
            want = getattr(A, act)(base.copy(), False)
            got = _depthwise(x, w, None, plan, act)
            np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32))


class _SE(torch.nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.conv = torch.nn.Conv2d(6, 8, 1)
        self.gate = torch.nn.Conv2d(8, 8, 1)
        self.project = torch.nn.Conv2d(8, 5, 1, bias=bias)

    def forward(self, x):
        y = self.conv(x)
        s = torch.sigmoid(self.gate(torch.nn.functional.adaptive_avg_pool2d(y, 1)))
        return self.project(y * s)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batch", [1, 3])
def test_squeeze_excite_scaled_pointwise_conv_runs_natively(bias, batch):
    """freeze rewrites conv2d(y * s) into tensor.mul_conv2d; its per-sample scaled-weight
    products run natively."""
    torch.manual_seed(13)
    m = _SE(bias).eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    assert "tensor.mul_conv2d" in nat.graph
    x = np.random.default_rng(14).standard_normal((batch, 6, 5, 7)).astype(np.float32)
    before = dict(kernels.COUNTS)
    got = nat(x)
    assert kernels.COUNTS.get(("tensor.mul_conv2d", "native"), 0) == \
        before.get(("tensor.mul_conv2d", "native"), 0) + 1
    want = vm(x)
    assert got.shape == want.shape and np.abs(got - want).max() <= 1e-5


def test_native_kernels_from_eight_threads_give_identical_results():
    """Per-call and per-thread scratch only: the same module from 8 threads at once."""
    import threading

    torch.manual_seed(15)
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                            torch.nn.MaxPool2d(2), torch.nn.Conv2d(16, 8, 1),
                            torch.nn.Flatten(), torch.nn.Linear(8 * 16, 20),
                            torch.nn.LayerNorm(20)).eval()
    nat = ember.script(m, backend="llvm")
    xs = [np.random.default_rng(b).standard_normal((b, 3, 8, 8)).astype(np.float32)
          for b in (1, 4, 9)]
    want = [nat(x) for x in xs]
    bad = []

    def work(k):
        for r in range(6):
            i = (k + r) % len(xs)
            if not np.array_equal(nat(xs[i]), want[i]):
                bad.append((k, i))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad


def test_a_paired_convolutions_error_keeps_its_line():
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3)

        def forward(self, x):
            y = self.conv(x)
            return torch.relu(y)

    m = M().eval()
    vm, nat = ember.script(m), ember.script(m, backend="llvm")
    assert "tensor.fused" in nat.graph
    bad = np.zeros((1, 5, 6, 6), np.float32)
    with pytest.raises(Exception) as want:
        vm(bad)
    with pytest.raises(type(want.value)) as got:
        nat(bad)
    assert str(got.value) == str(want.value)

    def frames(e):
        return [ln.strip() for n in getattr(e, "__notes__", []) for ln in n.splitlines()
                if ln.strip().startswith("File ")]
    assert frames(got.value) == frames(want.value) and frames(want.value)


def test_scaled_weights_per_sample_are_numpys_product():
    from ember.llvm.kernel_conv_dense import _scaled

    rng = np.random.default_rng(11)
    w = rng.standard_normal((6, 5, 1, 1)).astype(np.float32)
    for s in (rng.standard_normal((3, 5, 1, 1)), rng.standard_normal((5, 1, 1))):
        s = s.astype(np.float32)
        want = w.reshape(1, 6, 5) * s.reshape(-1, 1, 5)
        assert np.array_equal(_scaled(w, s, 6, 5), want)
