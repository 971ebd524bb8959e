"""Scalar entries as CPython builtins running native code (the body: pycall.py).

`make_builtin` returns a builtin function whose C function is the per-signature body and
whose `self` is an `Env`: a bytearray holding [direct shim address, id(slow),
id(on_error)] that also keeps those objects (and the entry's loaded image) alive. Bodies
are compiled once per signature and kept in ember's object cache (llvm/cache.py) and, in a
process, in `_BODIES`; a cache hit needs no llvmlite.
"""

from __future__ import annotations

import ctypes
import functools
import threading

from ember.ir import types as T

DIRECT, SLOW, ON_ERROR = 0, 1, 2
"""The slots of an Env's table."""
OB_TYPE = 1
"""PyObject's ob_type, in pointer-sized words (ob_refcnt first): checked by `available`."""
METH_FASTCALL_KEYWORDS = 0x80 | 0x2
C_API = ("PyLong_Type", "PyFloat_Type", "_Py_TrueStruct", "_Py_FalseStruct", "_Py_NoneStruct",
         "PyLong_AsLongLongAndOverflow", "PyLong_FromLongLong", "PyFloat_FromDouble",
         "PyFloat_AsDouble", "PyEval_SaveThread", "PyEval_RestoreThread", "Py_IncRef",
         "Py_DecRef", "PyObject_Vectorcall", "PyByteArray_AsString")
"""What the bodies name (resolved when their object code is linked)."""
_CODE = {T.I64: "l", T.F64: "d", T.BOOL: "b", T.NONE: "n"}
_BODIES: dict = {}
_LOCK = threading.Lock()


def signature(ft) -> str | None:
    """The body's key for an entry of function type ft ('ll_l': two ints, an int result),
    None when the entry has no builtin (a None parameter: the boundary handles it)."""
    if not all(t in (T.I64, T.F64, T.BOOL) for t in ft.params) or ft.ret not in _CODE:
        return None
    return "".join(_CODE[t] for t in ft.params) + "_" + _CODE[ft.ret]


def symbol(sig: str) -> str:
    """The body's exported name."""
    return f"ember_pycall_{sig}"


@functools.lru_cache(maxsize=None)
def available() -> bool:
    """CPython with the object layout the bodies read (ob_type one word in) and every
    C-API name they use exported."""
    try:
        api = ctypes.pythonapi
        for name in C_API:
            getattr(api, name)
        word = ctypes.sizeof(ctypes.c_void_p)
        return ctypes.c_void_p.from_address(id(1.5) + OB_TYPE * word).value == id(float)
    except (AttributeError, ValueError, OSError):
        return False


class Env(bytearray):
    """A builtin's `self`: the table its body reads, and the objects the table points at."""


class _MethodDef(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("meth", ctypes.c_void_p),
                ("flags", ctypes.c_int), ("doc", ctypes.c_char_p)]


def make_builtin(direct: int, ft, name: str, slow, on_error, image):
    """The builtin calling the direct shim at address `direct` (an entry of type ft in the
    loaded `image`), or None where this process cannot have one."""
    sig = signature(ft)
    if sig is None or not available():
        return None
    body = _body(sig)
    if body is None:
        return None
    table = (ctypes.c_void_p * 3)(direct, id(slow), id(on_error))
    env = Env(bytes(table))
    env.keep = (slow, on_error, image, body, name.encode())
    env.mdef = _MethodDef(env.keep[-1], body[1], METH_FASTCALL_KEYWORDS, None)
    return _new_ex()(ctypes.addressof(env.mdef), env, None)


def _body(sig: str):
    """(loaded image, address) of the body for sig: from this process, the cache, or LLVM;
    None if it cannot be linked here."""
    with _LOCK:
        got = _BODIES.get(sig)
        if got is None:
            got = _BODIES[sig] = _load(sig)
        return got


def _load(sig: str):
    from ember.llvm import VERSION, _link, cache, host_key

    k = cache.key(VERSION, host_key(), "pycall", sig)
    try:
        hit = cache.load(k)
        if hit is not None:
            obj = hit[1]
        else:
            from ember.llvm import jit
            from ember.llvm.pycall import wrapper_ir

            obj = jit.compile_ir(wrapper_ir(sig, *jit.target_triple_layout()), small=True)
            cache.store(k, {"pycall": sig}, obj)
        image = _link(obj)
        return image, image.address(symbol(sig))
    except (RuntimeError, OSError):  # (no such symbol here, LLVM refused: the ctypes path)
        return None


@functools.lru_cache(maxsize=None)
def _new_ex():
    """PyCFunction_NewEx through a handle of our own (ctypes.pythonapi's function objects
    are shared: their restype is not ours to set); PyDLL keeps the GIL for the call."""
    new = ctypes.PyDLL(None).PyCFunction_NewEx
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.c_void_p]
    return new
