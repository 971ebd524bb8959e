"""The native quantized conv2d (llvm/kernel_qconv.py) and per-tensor quantize / dequantize
(llvm/kernel_qelem.py) against the numpy kernels, torch's golden vectors and torch's
quantized conv, bit for bit; VNNI and generic code (EMBER_LLVM_CPU=generic)."""

import numpy as np
import pytest

from ember.llvm import kernels
from ember.llvm.kernel_qconv import NativeQConv2d
from ember.llvm.kernel_qelem import NativeDequantize, NativeQuantize
from ember.ops import tensor_quant as tq
from ember.ops.tensor_common import seal
from tests.unit.llvm.test_kernel_qgemm import generic_run

CONVS = [  # n, c, h, w, o, kh, kw, pad, dil
    (1, 3, 32, 32, 16, 3, 3, (1, 1), (1, 1)), (2, 16, 9, 17, 32, 3, 3, (1, 1), (1, 1)),
    (1, 1, 1, 1, 1, 1, 1, (0, 0), (1, 1)), (3, 5, 7, 40, 9, 2, 3, (0, 2), (2, 1)),
    (1, 32, 6, 6, 17, 1, 1, (0, 0), (1, 1)), (2, 7, 5, 33, 8, 3, 1, (2, 0), (1, 1)),
    (1, 4, 12, 15, 20, 3, 3, (1, 1), (1, 2))]


def _conv_args(rng, shape, relu, with_bias, freeze, zp_in=None):
    n, c, h, w, o, kh, kw, pad, dil = shape
    q = rng.integers(0, 256, (n, c, h, w)).astype(np.uint8)
    wq = rng.integers(-128, 128, (o, c, kh, kw)).astype(np.int8)
    ws = rng.uniform(1e-3, 0.05, o).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32) if with_bias else None
    if freeze:
        wq, ws = seal(wq), seal(ws)
        b = None if b is None else seal(b)
    zp = int(rng.integers(0, 256)) if zp_in is None else zp_in
    return (q, float(np.float32(rng.uniform(0.005, 0.1))), zp, wq, ws, b,
            float(np.float32(rng.uniform(0.05, 2))), int(rng.integers(0, 256)), [1, 1],
            list(pad), list(dil), 1, relu)


@pytest.mark.parametrize("shape", CONVS)
@pytest.mark.parametrize("relu", [False, True])
def test_conv2d_matches_numpy(shape, relu):
    rng = np.random.default_rng(sum(map(hash, map(str, shape))) % 2**32)
    twin = NativeQConv2d(tq.conv2d_static)
    key = ("tensor.quantized_conv2d", "native")
    for case in range(3):
        args = _conv_args(rng, shape, relu, case != 1, case == 2, 0 if case == 1 else None)
        before = kernels.COUNTS.get(key, 0)
        got, want = twin(*args), tq.conv2d_static(*args)
        assert got.dtype == np.uint8 and got.shape == want.shape
        assert np.array_equal(got, want), case
        assert np.array_equal(twin(*args), want)  # again: a frozen weight's fast path
        assert kernels.COUNTS.get(key, 0) == before + 2


def test_conv2d_other_forms_take_the_numpy_kernel():
    rng = np.random.default_rng(5)
    twin = NativeQConv2d(tq.conv2d_static)
    key = ("tensor.quantized_conv2d", "numpy")
    args = list(_conv_args(rng, (2, 4, 9, 9, 8, 3, 3, (1, 1), (1, 1)), False, True, False))
    strided = list(args)
    strided[8] = [2, 2]
    grouped = list(args)
    grouped[3], grouped[11] = args[3][:, :2].copy(), 2
    sliced = list(args)
    sliced[0] = args[0][:, :, :, ::2]
    for a in (strided, grouped, sliced):
        before = kernels.COUNTS.get(key, 0)
        assert np.array_equal(twin(*a), tq.conv2d_static(*a))
        assert kernels.COUNTS.get(key, 0) == before + 1
    bad = list(args)
    bad[0] = args[0][:, :3]
    with pytest.raises(RuntimeError, match="channels"):
        twin(*bad)


def test_conv2d_golden_vectors():
    from tests.unit.quant.test_golden import case, cases, differ
    twin = NativeQConv2d(tq.conv2d_static)
    names = cases("conv")
    assert names
    for name in names:
        c = case(name)
        args = (c["q"], float(c["s_in"]), int(c["zp_in"]), c["wq"], c["wscale"], c["bias"],
                float(c["s_out"]), int(c["zp_out"]), int(c["stride"]), int(c["pad"]),
                int(c["dil"]), int(c["groups"]), bool(c["relu"]))
        assert differ(twin(*args), c["y"]) == 0, name


def test_conv2d_against_torch():
    torch = pytest.importorskip("torch")
    if "fbgemm" not in torch.backends.quantized.supported_engines:
        pytest.skip("torch has no fbgemm engine")
    torch.backends.quantized.engine = "fbgemm"
    rng = np.random.default_rng(9)
    twin = NativeQConv2d(tq.conv2d_static)
    for n, c, h, w, o, kh, kw, pad, dil in CONVS:
        x = torch.from_numpy(rng.standard_normal((n, c, h, w)).astype(np.float32))
        s_in, zp_in, s_out, zp_out = 0.03, 70, 0.2, 60
        qx = torch.quantize_per_tensor(x, s_in, zp_in, torch.quint8)
        wf = torch.from_numpy(rng.standard_normal((o, c, kh, kw)).astype(np.float32) * 0.2)
        s_w = torch.from_numpy(tq.symmetric_scale(wf.abs().reshape(o, -1).max(1)[0].numpy()))
        wq = torch.quantize_per_channel(wf, s_w.double(), torch.zeros(o, dtype=torch.long), 0,
                                        torch.qint8)
        bias = torch.from_numpy(rng.standard_normal(o).astype(np.float32))
        conv = torch.ao.nn.quantized.Conv2d(c, o, (kh, kw), padding=pad, dilation=dil)
        conv.set_weight_bias(wq, bias)
        conv.scale, conv.zero_point = s_out, zp_out
        want = conv(qx).int_repr().numpy()
        got = twin(qx.int_repr().numpy(), s_in, zp_in, wq.int_repr().numpy(),
                   s_w.numpy(), bias.numpy(), s_out, zp_out, [1, 1], list(pad), list(dil), 1,
                   False)
        assert np.array_equal(got, want), (n, c, h, w, o)


def test_quantize_dequantize_match_numpy():
    rng = np.random.default_rng(4)
    nq, nd = NativeQuantize(tq.quantize_per_tensor), NativeDequantize(tq.dequantize)
    for shape in [(1,), (15,), (17,), (3, 40), (2, 3, 31, 5), (300001,)]:
        x = (rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3)).astype(np.float32)
        if x.size > 3:
            x.reshape(-1)[:3] = [np.nan, np.inf, -np.inf]
        for dt, z in (("quint8", 131), ("quint8", 0), ("qint8", -3)):
            with np.errstate(all="ignore"):
                want = tq.quantize_per_tensor(x, 0.0173, z, dt)
            got = nq(x, 0.0173, z, dt)
            assert got.dtype == want.dtype and np.array_equal(got, want)
            d = nd(got, 0.0173, z)
            want_d = tq.dequantize(want, 0.0173, z)
            assert np.array_equal(d.view(np.uint32), want_d.view(np.uint32))
    with pytest.raises(RuntimeError, match="finite and positive"):
        nq(x, 0.0, 0, "quint8")
    with pytest.raises(RuntimeError, match="out of range"):
        nq(x, 0.1, 300, "quint8")


_GENERIC_CONV = """
from ember.llvm.kernel_qconv import NativeQConv2d
from ember.llvm.kernel_qelem import NativeQuantize
for n, c, h, w, o, kh, kw, pad, dil in [(2, 16, 9, 17, 32, 3, 3, (1, 1), (1, 1)),
                                        (3, 5, 7, 40, 9, 2, 3, (0, 2), (2, 1))]:
    q = rng.integers(0, 256, (n, c, h, w)).astype(np.uint8)
    wq = rng.integers(-128, 128, (o, c, kh, kw)).astype(np.int8)
    args = (q, 0.02, 77, wq, rng.uniform(1e-3, .05, o).astype(np.float32),
            rng.standard_normal(o).astype(np.float32), 0.3, 40, [1, 1], list(pad),
            list(dil), 1, True)
    bad += not np.array_equal(NativeQConv2d(tq.conv2d_static)(*args), tq.conv2d_static(*args))
x = rng.standard_normal((3, 1000)).astype(np.float32)
bad += not np.array_equal(NativeQuantize(tq.quantize_per_tensor)(x, 0.01, 120, "quint8"),
                          tq.quantize_per_tensor(x, 0.01, 120, "quint8"))
"""


def test_generic_code_matches_numpy():
    assert "differ 0" in generic_run(_GENERIC_CONV)


def test_quantized_models_run_natively_with_the_vms_bits():
    """ember.quantize's static CNN and dynamic MLP under backend="llvm": the VM's outputs
    bit for bit, with the convolutions, linears, quantize and dequantize native."""
    torch = pytest.importorskip("torch")
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "models"))
    import bench_models

    import ember
    torch.manual_seed(0)
    cnn = bench_models.SmallCNN().eval()
    cal = [torch.randn(8, 3, 32, 32).numpy() for _ in range(2)]
    vm = ember.quantize(cnn, "static", calibration=cal)
    native = ember.quantize(cnn, "static", calibration=cal, backend="llvm")
    mlp = bench_models.MLP().eval()
    for batch in (1, 5):
        kernels.COUNTS.clear()
        x = torch.randn(batch, 3, 32, 32).numpy()
        assert np.array_equal(native(x).view(np.uint32), vm(x).view(np.uint32))
        for op in ("quantized_conv2d", "quantized_linear", "quantize_per_tensor",
                   "dequantize_codes"):
            assert kernels.COUNTS.get((f"tensor.{op}", "native"), 0) > 0, op
            assert kernels.COUNTS.get((f"tensor.{op}", "numpy"), 0) == 0, op
        x = torch.randn(batch, 784).numpy()
        got = ember.quantize(mlp, "dynamic", backend="llvm")(x)
        want = ember.quantize(mlp, "dynamic")(x)
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
        assert kernels.COUNTS.get(("tensor.quantized_linear_dynamic", "native"), 0) == 1
        assert kernels.COUNTS.get(("tensor.quantized_linear_dynamic_relu", "native"), 0) == 2


@pytest.mark.parametrize("top,zp", [(128, 128), (128, 3), (129, 3), (128, 129)])
def test_conv2d_narrow_and_wide_codes(top, zp):
    """Inputs and zero points up to 128 take the AVX2 product without the split of wide
    codes; a 129 (an input code: the rows reading it; the padding's zero point) the split."""
    rng = np.random.default_rng(top + zp)
    twin = NativeQConv2d(tq.conv2d_static)
    for shape in CONVS[:2]:
        args = list(_conv_args(rng, shape, False, True, False, zp))
        for where in (-1, q_mid(args[0].shape)):
            q = rng.integers(0, min(top, 128) + 1, args[0].shape).astype(np.uint8)
            q.flat[where] = top  # one wide code: its rows take the split, the rest not
            args[0] = q
            args[3][...] = np.where(rng.random(args[3].shape) < 0.5, -128, 127)
            assert np.array_equal(twin(*args), tq.conv2d_static(*args))


def q_mid(shape):
    """The flat index of a pixel in the middle row of the last image's first channel."""
    n, c, h, w = shape
    return ((n - 1) * c * h + h // 2) * w + w // 2


@pytest.mark.parametrize("top", [128, 129, 255])
def test_static_linear_narrow_and_wide_codes(top):
    from ember.llvm.kernel_qlinear import NativeQLinear
    rng = np.random.default_rng(top)
    twin = NativeQLinear(tq.linear_static)
    for m, k, n in ((1, 64, 17), (5, 33, 40)):
        q = rng.integers(0, top + 1, (m, k)).astype(np.uint8)
        q.flat[0] = top
        w = np.where(rng.random((n, k)) < 0.5, -128, 127).astype(np.int8)
        ws = rng.uniform(1e-4, 1e-3, n).astype(np.float32)
        args = (q, 0.02, 7, w, ws, rng.standard_normal(n).astype(np.float32), 0.5, 60, False)
        assert np.array_equal(twin(*args), tq.linear_static(*args))


def test_static_linear_wide_rows_among_narrow_ones():
    """Rows with a code above 128 take the split; the tiles of the other rows do not."""
    from ember.llvm.kernel_qlinear import NativeQLinear
    rng = np.random.default_rng(5)
    twin = NativeQLinear(tq.linear_static)
    for m in (1, 3, 4, 9, 33):
        q = rng.integers(0, 129, (m, 50)).astype(np.uint8)
        q[m // 2, 7] = 255
        w = np.where(rng.random((20, 50)) < 0.5, -128, 127).astype(np.int8)
        ws = rng.uniform(1e-4, 1e-3, 20).astype(np.float32)
        args = (q, 0.02, 7, w, ws, rng.standard_normal(20).astype(np.float32), 0.5, 60, False)
        assert np.array_equal(twin(*args), tq.linear_static(*args)), m
