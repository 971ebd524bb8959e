"""numpy's own float32 inner loops (np.exp, np.tanh) as raw function pointers, for native
code that must compute numpy's bits (kernel_qlstm.py's step loop).

A ufunc keeps its typed loops in PyUFuncObject's `functions` array (numpy's legacy
`PyUFuncGenericFunction`: `void f(char **args, npy_intp const *dimensions, npy_intp const
*steps, void *data)`), the loop numpy itself runs for a contiguous float32 array. The
struct's layout is read at the offsets numpy's headers give (nin, nout, functions, data,
ntypes, types), checked against the ufunc's Python attributes, and the loop found is then
checked to give np.exp's / np.tanh's bits on vectors of every length up to 70 at several
alignments, with NaN and infinities: anything off and `loops()` is None (the callers keep
calling the ufuncs).
"""

from __future__ import annotations

import ctypes

import numpy as np

_LOOP = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_void_p)
_NIN, _NOUT, _FUNCTIONS, _DATA, _NTYPES, _TYPES = 16, 20, 32, 40, 48, 64
_FOUND: list = []


def loops():
    """{"exp": (loop address, data), "tanh": (...)} for float32, or None."""
    if not _FOUND:
        try:
            found = {name: _checked(getattr(np, name)) for name in ("exp", "tanh")}
        except (ValueError, OSError, OverflowError):
            found = None
        _FOUND.append(found if found and all(found.values()) else None)
    return _FOUND[0]


def _read(addr, ctype):
    return ctype.from_address(addr).value


def _loop(uf):
    """(address, data) of uf's float32 -> float32 loop, or None."""
    base = id(uf)
    if _read(base + _NIN, ctypes.c_int) != uf.nin or \
            _read(base + _NOUT, ctypes.c_int) != uf.nout or \
            _read(base + _NTYPES, ctypes.c_int) != uf.ntypes or uf.ntypes != len(uf.types):
        return None
    codes = ctypes.string_at(_read(base + _TYPES, ctypes.c_void_p), 2 * uf.ntypes)
    want = bytes([np.dtype(np.float32).num] * 2)
    expect = [bytes([np.dtype(t[0]).num, np.dtype(t[-1]).num]) for t in uf.types]
    if [codes[2 * i:2 * i + 2] for i in range(uf.ntypes)] != expect or want not in expect:
        return None
    i = expect.index(want)
    fn = _read(_read(base + _FUNCTIONS, ctypes.c_void_p) + 8 * i, ctypes.c_void_p)
    data = _read(base + _DATA, ctypes.c_void_p)
    return (fn, _read(data + 8 * i, ctypes.c_void_p) if data else None) if fn else None


def _checked(uf):
    hit = _loop(uf)
    if hit is None:
        return None
    fn = _LOOP(hit[0])
    rng = np.random.default_rng(12345)
    with np.errstate(all="ignore"):
        for n in list(range(1, 71)) + [128, 384, 1031]:
            for off in (0, 1, 3):
                buf = (rng.standard_normal(n + off) * [0.01, 1.0, 6.0, 40.0, 120.0][n % 5])
                buf = buf.astype(np.float32)
                buf[n % (n + off)] = [np.nan, np.inf, -np.inf, 0.0, -0.0][n % 5]
                x = buf[off:]
                if not np.array_equal(_call(fn, hit[1], x).view(np.int32),
                                      uf(x).view(np.int32)):
                    return None
    return hit


def _call(fn, data, x):
    out = np.empty_like(x)
    args = (ctypes.c_void_p * 2)(x.ctypes.data, out.ctypes.data)
    dims = (ctypes.c_int64 * 1)(x.size)
    steps = (ctypes.c_int64 * 2)(4, 4)
    fn(ctypes.addressof(args), ctypes.addressof(dims), ctypes.addressof(steps), data)
    return out
