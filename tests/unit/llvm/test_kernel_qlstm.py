"""The quantized dynamic LSTM with native products (llvm/kernel_qlstm.py) against the
numpy kernel, bit for bit: layers, directions, batch_first, unbatched inputs, given and
default states, biases or none, and the general path (NaN) through the numpy kernel."""

import numpy as np
import pytest

from ember.llvm import kernels
from ember.llvm.kernel_qlstm import NativeQLSTM
from ember.ops.tensor_common import seal
from ember.ops import tensor_quant_dynamic as D
from ember.ops.tensor_quant_dynamic import _qrecurrent

CASES = [  # steps, batch, features, hidden, layers, bidirectional, batch_first, freeze
    (32, 1, 64, 128, 1, False, True, True), (5, 32, 64, 128, 1, False, True, True),
    (3, 1, 5, 3, 2, True, False, False), (7, 9, 17, 33, 2, False, False, True),
    (1, 40, 3, 16, 1, True, True, False), (4, 2, 8, 1, 1, False, False, False)]


def _params(rng, f, hid, layers, dirs, with_bias, freeze):
    params = []
    for layer in range(layers * dirs):
        fin = f if layer < dirs else hid * dirs
        for cols in (fin, hid):
            w = rng.integers(-128, 128, (4 * hid, cols)).astype(np.int8)
            s = np.array([rng.uniform(1e-3, 0.05)], np.float32)
            b = rng.standard_normal(4 * hid).astype(np.float32) if with_bias else None
            if freeze:
                w, s, b = seal(w), seal(s), None if b is None else seal(b)
            params += [w, s, b]
    return params


def _same(a, b):
    return all(u.shape == v.shape and np.array_equal(u.view(np.uint32), v.view(np.uint32))
               for u, v in zip(a, b))


@pytest.mark.parametrize("case", CASES)
def test_lstm_matches_numpy(case):
    steps, n, f, hid, layers, bi, bf, freeze = case
    rng = np.random.default_rng(steps * 100 + n)
    kernel = _qrecurrent("lstm")
    twin = NativeQLSTM(kernel)
    dirs = 2 if bi else 1
    key = ("tensor.quantized_lstm_dynamic", "native")
    for with_bias in (True, False):
        params = _params(rng, f, hid, layers, dirs, with_bias, freeze)
        x = rng.standard_normal((n, steps, f) if bf else (steps, n, f)).astype(np.float32)
        for hx in ([], [rng.standard_normal((layers * dirs, n, hid)).astype(np.float32)
                        for _ in range(2)]):
            before = kernels.COUNTS.get(key, 0)
            assert _same(twin(x, hx, params, layers, bi, bf), kernel(x, hx, params, layers,
                                                                      bi, bf))
            assert kernels.COUNTS.get(key, 0) == before + 1


def test_lstm_unbatched_and_general_path():
    rng = np.random.default_rng(1)
    kernel = _qrecurrent("lstm")
    twin = NativeQLSTM(kernel)
    params = _params(rng, 6, 5, 1, 1, True, True)
    x = rng.standard_normal((4, 6)).astype(np.float32)
    assert _same(twin(x, [], params, 1, False, False), kernel(x, [], params, 1, False, False))
    x[2, 3] = np.nan
    key = ("tensor.quantized_lstm_dynamic", "numpy")
    before = kernels.COUNTS.get(key, 0)
    assert _same(twin(x, [], params, 1, False, False), kernel(x, [], params, 1, False, False))
    assert kernels.COUNTS.get(key, 0) == before + 1
    with pytest.raises(RuntimeError, match="groups of 6"):
        twin(x, [], params[:5], 1, False, False)


def test_batch_one_runs_its_steps_in_one_native_call():
    """At batch 1 every step runs in build_sequence's loop, numpy's exp and tanh called
    through their own float32 loops (numpy_loops.py): the numpy kernel's bits, forwards and
    backwards; a non-finite state leaves the call to the numpy kernel's general path."""
    from ember.llvm import numpy_loops
    if numpy_loops.loops() is None:
        pytest.skip("numpy's loops were not found or did not check out here")
    rng = np.random.default_rng(5)
    kernel = _qrecurrent("lstm")
    twin = NativeQLSTM(kernel)
    for hid, bi in ((128, False), (19, True), (1, True)):
        params = _params(rng, 10, hid, 2, 2 if bi else 1, True, True)
        x = rng.standard_normal((1, 9, 10)).astype(np.float32)
        hx = [rng.standard_normal((2 * (2 if bi else 1), 1, hid)).astype(np.float32)
              for _ in range(2)]
        assert _same(twin(x, hx, params, 2, bi, True), kernel(x, hx, params, 2, bi, True))
    assert twin.seq is not None
    hx[0][1, 0, 0] = np.inf  # the second layer's initial h: its first step falls back
    key = ("tensor.quantized_lstm_dynamic", "numpy")
    before = kernels.COUNTS.get(key, 0)
    assert _same(twin(x, hx, params, 2, bi, True), kernel(x, hx, params, 2, bi, True))
    assert kernels.COUNTS.get(key, 0) == before + 1


def test_numpy_loops_give_the_ufuncs_bits():
    from ember.llvm import numpy_loops
    found = numpy_loops.loops()
    if found is None:
        pytest.skip("numpy's loops were not found or did not check out here")
    import ctypes
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(5000) * 30).astype(np.float32)[1:]
    with np.errstate(all="ignore"):
        for name, (addr, data) in found.items():
            got = numpy_loops._call(numpy_loops._LOOP(addr), data, x)
            assert np.array_equal(got.view(np.int32), getattr(np, name)(x).view(np.int32))
    assert ctypes.sizeof(ctypes.c_void_p) == 8


def test_numpy_kernel_one_hidden_unit_keeps_the_states():
    """One hidden unit, a batch (the numpy kernel's column layout): the states it is given
    stay unchanged and h and c do not alias (they did: h.T of one unit is contiguous)."""
    rng = np.random.default_rng(8)
    kernel = _qrecurrent("lstm")
    params = _params(rng, 3, 1, 1, 1, True, False)
    x = rng.standard_normal((5, 4, 3)).astype(np.float32)
    hx = [rng.standard_normal((1, 4, 1)).astype(np.float32) for _ in range(2)]
    kept = [h.copy() for h in hx]
    got = kernel(x, hx, params, 1, False, False)
    assert all(np.array_equal(a, b) for a, b in zip(hx, kept))
    rows = D.recurrent("lstm", x, hx, params, 1, False, False,
                       (lambda p, count: D._layers("lstm", p, count), D._qlstm_rows))
    assert _same(got, rows)  # the row layout (batch 1's) gives the same values


_GENERIC_LSTM = """
from ember.llvm.kernel_qlstm import NativeQLSTM
from ember.ops.tensor_quant_dynamic import _qrecurrent
kernel = _qrecurrent("lstm")
for n in (1, 6):
    params = []
    for cols in (7, 9):
        params += [rng.integers(-128, 128, (36, cols)).astype(np.int8),
                   np.array([0.01], np.float32), rng.standard_normal(36).astype(np.float32)]
    x = rng.standard_normal((5, n, 7)).astype(np.float32)
    got = NativeQLSTM(kernel)(x, [], params, 1, False, False)
    want = kernel(x, [], params, 1, False, False)
    bad += not all(np.array_equal(a, b) for a, b in zip(got, want))
"""


def test_generic_code_matches_numpy():
    from tests.unit.llvm.test_kernel_qgemm import generic_run
    assert "differ 0" in generic_run(_GENERIC_LSTM)


@pytest.mark.parametrize("bf", [False, True])
def test_single_sample_fast_path_matches_numpy(bf):
    """One layer, one sample, with and without initial states (NativeQLSTM._single):
    the general path's bits and shapes, batched and unbatched; a NaN input declines to
    it; the caller's states are not written."""
    from ember.llvm import numpy_loops
    if numpy_loops.loops() is None:
        pytest.skip("numpy's loops were not found or did not check out here")
    rng = np.random.default_rng(21 + bf)
    kernel = _qrecurrent("lstm")
    twin = NativeQLSTM(kernel)
    params = _params(rng, 10, 24, 1, 1, True, True)
    for shape in ((1, 7, 10) if bf else (7, 1, 10), (7, 10)):
        x = rng.standard_normal(shape).astype(np.float32)
        got, want = twin(x, [], params, 1, False, bf), kernel(x, [], params, 1, False, bf)
        assert _same(got, want) and len(got) == 3
        got[1][...] = 0  # h_n is not a view of the output
        assert _same(got[:1], want[:1])
        state = (1, 24) if len(shape) == 2 else (1, 1, 24)
        hx = [rng.standard_normal(state).astype(np.float32) for _ in range(2)]
        keep = [s.copy() for s in hx]
        got, want = twin(x, hx, params, 1, False, bf), kernel(x, hx, params, 1, False, bf)
        assert _same(got, want) and _same(hx, keep)
        x.reshape(7, 10)[3, 1] = np.nan
        key = ("tensor.quantized_lstm_dynamic", "numpy")
        before = kernels.COUNTS.get(key, 0)
        assert _same(twin(x, [], params, 1, False, bf), kernel(x, [], params, 1, False, bf))
        assert kernels.COUNTS.get(key, 0) == before + 1
