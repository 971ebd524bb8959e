"""The native int8 products (llvm/kernel_qgemm.py, kernel_qlinear.py) against the numpy
kernels and torch's quantized ops, bit for bit, on random shapes (batch 1, K not a
multiple of 4, N not a multiple of 16), with VNNI where the CPU has it and in generic
code (EMBER_LLVM_CPU=generic, in a child process: the target is chosen once)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from ember.llvm import kernel_qgemm as Q
from ember.llvm import kernels
from ember.llvm.kernel_qlinear import NativeQLinear, NativeQLinearDynamic
from ember.ops import tensor_quant as tq
from ember.ops import tensor_quant_dynamic as tqd
from ember.ops.tensor_common import seal

SHAPES = [(1, 1, 1), (1, 3, 17), (1, 784, 256), (2, 5, 16), (3, 63, 33), (5, 128, 10),
          (7, 255, 65), (32, 256, 256), (33, 100, 48), (4, 4, 129), (2, 23, 20),
          (1, 8192, 10)]


def _bits(a):
    return a.view(np.uint32 if a.dtype == np.float32 else a.dtype)


def _weights(rng, n, k, per_channel, with_bias, freeze):
    w = rng.integers(-128, 128, (n, k)).astype(np.int8)
    ws = rng.uniform(1e-3, 0.05, n if per_channel else 1).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32) if with_bias else None
    if freeze:
        w, ws = seal(w), seal(ws)
        b = None if b is None else seal(b)
    return w, ws, b


def _inputs(rng, m, k, case):
    x = (rng.standard_normal((m, k)) * rng.uniform(0.01, 10)).astype(np.float32)
    if case == 1:
        x = np.abs(x)  # zero point 0
    elif case == 2:
        x = -np.abs(x)  # zero point at the top
    elif case == 3:
        x = np.full((m, k), 1e-7, np.float32)  # a scale below fbgemm's floor
    elif case == 4:
        x = np.zeros((m, k), np.float32)
    return x


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("freeze", [False, True])
def test_dynamic_linear_matches_numpy(m, k, n, freeze):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    twin = NativeQLinearDynamic(tqd.linear_dynamic)
    for case in range(5):
        w, ws, b = _weights(rng, n, k, case % 2 == 0, case != 3, freeze)
        x = _inputs(rng, m, k, case)
        for rr in (True, False):
            before = dict(kernels.COUNTS)
            got = twin(x, w, ws, b, rr)
            want = tqd.linear_dynamic(x, w, ws, b, rr)
            assert got.shape == want.shape
            assert np.array_equal(_bits(got), _bits(want)), (case, rr)
            key = ("tensor.quantized_linear_dynamic", "native")
            assert kernels.COUNTS.get(key, 0) == before.get(key, 0) + 1


@pytest.mark.parametrize("m,k,n", [(1, 784, 256), (5, 63, 33), (32, 256, 256), (2, 5, 17)])
def test_dynamic_linear_relu_matches_relu_of_numpy(m, k, n):
    """The folded relu (tensor.quantized_linear_dynamic_relu) gives tensor.relu's bits of
    the product, NaN from a NaN bias kept."""
    from ember.ops.tensor_activation import relu
    rng = np.random.default_rng(m + k + n)
    twin = NativeQLinearDynamic(tqd._linear_dynamic_relu_op, relu=True)
    key = ("tensor.quantized_linear_dynamic_relu", "native")
    for case in range(5):
        w, ws, b = _weights(rng, n, k, case % 2 == 0, True, False)
        if case == 4:
            b[n // 2] = np.nan
        if case > 1:
            w, ws, b = seal(w), seal(ws), seal(b)
        x = _inputs(rng, m, k, case)
        for rr in (True, False):
            before = kernels.COUNTS.get(key, 0)
            got = twin(x, w, ws, b, rr)
            want = relu(tqd.linear_dynamic(x, w, ws, b, rr))
            assert np.array_equal(_bits(got), _bits(want)), (case, rr)
            assert np.array_equal(_bits(tqd._linear_dynamic_relu_op(x, w, ws, b, rr)),
                                  _bits(want))
            assert kernels.COUNTS.get(key, 0) == before + 1
            assert (got >= 0).all() or case == 4


def test_dynamic_linear_leading_dims_and_fallbacks():
    rng = np.random.default_rng(7)
    twin = NativeQLinearDynamic(tqd.linear_dynamic)
    w, ws, b = _weights(rng, 20, 30, False, True, True)
    x = rng.standard_normal((2, 3, 30)).astype(np.float32)
    assert np.array_equal(twin(x, w, ws, b, True), tqd.linear_dynamic(x, w, ws, b, True))
    key = ("tensor.quantized_linear_dynamic", "numpy")
    for bad in (np.nan, np.inf, -np.inf):  # the numpy kernel's general path takes them
        y = x.copy()
        y[1, 2, 3] = bad
        before = kernels.COUNTS.get(key, 0)
        try:
            want = tqd.linear_dynamic(y, w, ws, b, True)
        except ValueError:  # (the numpy kernel's own limit with infinities)
            with pytest.raises(ValueError):
                twin(y, w, ws, b, True)
        else:
            assert np.array_equal(_bits(twin(y, w, ws, b, True)), _bits(want))
        assert kernels.COUNTS.get(key, 0) == before + 1
    xt = np.asfortranarray(rng.standard_normal((4, 30)).astype(np.float32))
    assert np.array_equal(twin(xt, w, ws, b, True), tqd.linear_dynamic(xt, w, ws, b, True))
    with pytest.raises(RuntimeError, match="features"):
        twin(rng.standard_normal((2, 29)).astype(np.float32), w, ws, b, True)
    with pytest.raises(RuntimeError, match="finite and positive"):
        twin(x, w, np.array([0.0], np.float32), b, True)


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("relu", [False, True])
def test_static_linear_matches_numpy(m, k, n, relu):
    rng = np.random.default_rng(m * 999 + k * 7 + n)
    twin = NativeQLinear(tq.linear_static)
    for case in range(4):
        w, ws, b = _weights(rng, n, k, case % 2 == 0, case != 1, case >= 2)
        q = rng.integers(0, 128 if case == 3 else 256, (m, k)).astype(np.uint8)
        s_in = float(np.float32(rng.uniform(0.005, 0.1)))
        s_out = float(np.float32(rng.uniform(0.02, 3)))
        zin, zout = int(rng.integers(0, 256)), int(rng.integers(0, 256))
        got = twin(q, s_in, zin, w, ws, b, s_out, zout, relu)
        want = tq.linear_static(q, s_in, zin, w, ws, b, s_out, zout, relu)
        assert got.dtype == np.uint8 and np.array_equal(got, want), case
        again = twin(q, s_in, zin, w, ws, b, s_out, zout, relu)  # frozen: the fast path
        assert np.array_equal(again, want), case


def test_against_torch_quantized_ops():
    torch = pytest.importorskip("torch")
    if "fbgemm" not in torch.backends.quantized.supported_engines:
        pytest.skip("torch has no fbgemm engine")
    torch.backends.quantized.engine = "fbgemm"
    rng = np.random.default_rng(3)
    twin = NativeQLinearDynamic(tqd.linear_dynamic)
    for m, k, n in SHAPES:
        wf = rng.standard_normal((n, k)).astype(np.float32) * 0.1
        s_w = float(tq.symmetric_scale(np.abs(wf).max())[()])
        wq = torch.quantize_per_tensor(torch.from_numpy(wf), s_w, 0, torch.qint8)
        bias = rng.standard_normal(n).astype(np.float32)
        packed = torch.ops.quantized.linear_prepack(wq, torch.from_numpy(bias))
        x = rng.standard_normal((m, k)).astype(np.float32) * 2
        want = torch.ops.quantized.linear_dynamic(torch.from_numpy(x), packed, True).numpy()
        codes = wq.int_repr().numpy()
        got = twin(x, codes, np.array([s_w], np.float32), bias, True)
        assert np.array_equal(_bits(got), _bits(want)), (m, k, n)


_GENERIC = """
import numpy as np
from ember.llvm import kernel_qgemm as Q
from ember.llvm.kernel_qlinear import NativeQLinear, NativeQLinearDynamic
from ember.ops import tensor_quant as tq, tensor_quant_dynamic as tqd
assert not Q.has_vnni()
rng = np.random.default_rng(11)
dyn, sta = NativeQLinearDynamic(tqd.linear_dynamic), NativeQLinear(tq.linear_static)
bad = 0
for m, k, n in [(1, 3, 17), (1, 784, 256), (3, 63, 33), (33, 100, 48)]:
    w = rng.integers(-128, 128, (n, k)).astype(np.int8)
    ws = rng.uniform(1e-3, 0.05, n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    x = rng.standard_normal((m, k)).astype(np.float32)
    bad += not np.array_equal(dyn(x, w, ws, b, True), tqd.linear_dynamic(x, w, ws, b, True))
    q = rng.integers(0, 256, (m, k)).astype(np.uint8)
    args = (q, 0.02, 100, w, ws, b, 0.5, 60, True)
    bad += not np.array_equal(sta(*args), tq.linear_static(*args))
EXTRA
print("differ", bad)
"""


def generic_run(extra="", **env):
    """Run the _GENERIC check (plus `extra` code) in a child with EMBER_LLVM_CPU=generic
    (or the environment given)."""
    env = dict(os.environ, **(env or {"EMBER_LLVM_CPU": "generic"}))
    res = subprocess.run([sys.executable, "-c", _GENERIC.replace("EXTRA", extra)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def test_generic_code_matches_numpy():
    assert "differ 0" in generic_run()


def test_avx2_code_matches_numpy():
    """vpmaddubsw / vpmaddwd products (codes up to 255 split in two) on a VNNI host too."""
    if Q._detect() == "generic":
        pytest.skip("no AVX2 here")
    out = generic_run("assert Q.int8_isa() == 'avx2'", EMBER_LLVM_INT8="avx2")
    assert "differ 0" in out


def test_golden_vectors():
    """torch's stored dynamic linear outputs (tests/unit/quant/golden.npz)."""
    from tests.unit.quant.test_golden import case, cases, differ
    twin = NativeQLinearDynamic(tqd.linear_dynamic)
    names = cases("dynlin")
    assert names
    for name in names:
        c = case(name)
        got = twin(c["x"], c["wq"], np.array([float(c["wscale"])], np.float32), c["bias"], True)
        assert differ(got, c["y"]) == 0, name
