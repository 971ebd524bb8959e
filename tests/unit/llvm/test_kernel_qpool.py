"""Max pooling of uint8 codes natively (llvm/kernel_qpool.py) against the numpy kernel,
and the calls it leaves to the float twin / the numpy kernel."""

import numpy as np
import pytest

from ember.llvm import kernels
from ember.llvm.kernel_qpool import NativeCodesMaxPool2d
from ember.ops.tensor_pool import max_pool2d

NATIVE, NUMPY = ("tensor.max_pool2d", "native"), ("tensor.max_pool2d", "numpy")


class Inner:
    """The wrapped twin: counts what it is given."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return max_pool2d(*args)


WINDOWS = [(2, 2, 2, 2), (3, 3, 2, 2), (1, 1, 1, 1), (8, 3, 4, 1), (2, 5, 1, 3), (3, 2, 3, 4)]


@pytest.mark.parametrize("kh,kw,sh,sw", WINDOWS)
def test_codes_pool_matches_numpy(kh, kw, sh, sw):
    rng = np.random.default_rng(kh * 1000 + kw * 100 + sh * 10 + sw)
    inner = Inner()
    pool = NativeCodesMaxPool2d(inner)
    for trial in range(30):
        h, w = int(rng.integers(kh, kh + 40)), int(rng.integers(kw, kw + 70))
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 4)), h, w) if trial % 2 \
            else (int(rng.integers(1, 4)), h, w)
        x = rng.integers(0, 256, shape).astype(np.uint8)
        args = ([kh, kw], [sh, sw], [0, 0], [1, 1], False, False)
        before = kernels.COUNTS.get(NATIVE, 0)
        got, want = pool(x, *args), max_pool2d(x, *args)
        assert got.dtype == np.uint8 and got.shape == want.shape
        assert np.array_equal(got, want), (shape, args)
        assert kernels.COUNTS.get(NATIVE, 0) == before + 1
    assert inner.calls == 0


def test_other_calls_go_to_the_wrapped_twin():
    rng = np.random.default_rng(9)
    inner = Inner()
    pool = NativeCodesMaxPool2d(inner)
    x = rng.integers(0, 256, (2, 3, 9, 11)).astype(np.uint8)
    cases = [(x, [2, 2], [2, 2], [1, 1], [1, 1], False, False),  # padding
             (x, [3, 3], [1, 1], [0, 0], [2, 2], False, False),  # dilation
             (x, [2, 2], [2, 2], [0, 0], [1, 1], True, False),  # ceil mode
             (x, [9, 9], [1, 1], [0, 0], [1, 1], False, False),  # window > 8
             (x, [2, 2], [5, 5], [0, 0], [1, 1], False, False),  # stride > 4
             (x[:, :, :, ::2], [2, 2], [2, 2], [0, 0], [1, 1], False, False),  # strided
             (x.astype(np.int8), [2, 2], [2, 2], [0, 0], [1, 1], False, False),
             (x.astype(np.float32), [2, 2], [2, 2], [0, 0], [1, 1], False, False)]
    for i, args in enumerate(cases, 1):
        got = pool(*args)
        assert inner.calls == i
        assert np.array_equal(got, max_pool2d(*args))
    r = pool(x, [2, 2], [2, 2], [0, 0], [1, 1], False, True)  # indices
    assert inner.calls == len(cases) + 1 and isinstance(r, tuple)


def test_the_same_list_objects_reuse_the_plan():
    pool = NativeCodesMaxPool2d(Inner())
    x = np.arange(2 * 6 * 8, dtype=np.uint8).reshape(2, 6, 8)
    k, s, p, d = [2, 3], [2, 1], [0, 0], [1, 1]
    first = pool(x, k, s, p, d, False, False)
    assert pool.last[:4] == (k, s, p, d)
    assert np.array_equal(pool(x, k, s, p, d, False, False), first)
    assert np.array_equal(first, max_pool2d(x, k, s, p, d, False, False))
