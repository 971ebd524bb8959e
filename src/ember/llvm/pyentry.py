"""Scalar entries as CPython builtins running native code (the body: pycall.py).

`make_builtin` returns a builtin function whose C function is the shared body and whose
`self` is an `Env`: a bytearray table of 64-bit words — the entry's struct-argument shim,
id(slow), id(on_error), the parameter count, the result's kind, then per parameter
`kind << 32 | offset in the argument block` — that also keeps the callables and the entry's
loaded image alive. The body is compiled once per machine and kept in ember's object cache
(llvm/cache.py) and, in a process, in `_BODY`; a cache hit needs no llvmlite.
"""

from __future__ import annotations

import ctypes
import functools
import threading

from ember.ir import types as T

SYMBOL = "ember_pycall"
ENTRY, SLOW, ON_ERROR, NPARAMS, RESULT, PARAMS = 0, 1, 2, 3, 4, 5
"""The words of an Env's table (PARAMS: the first parameter's)."""
KIND_I64, KIND_F64, KIND_BOOL, KIND_NONE = 0, 1, 2, 3
GATED = 1 << 62
"""A parameter count no call has: the table of a gated builtin (`gate`) holds it."""
MAX_PARAMS = 16
"""Argument block: this many 8-byte words (an entry with more parameters keeps ctypes)."""
OB_TYPE = 1
"""PyObject's ob_type, in pointer-sized words (ob_refcnt first): checked by `available`."""
METH_FASTCALL_KEYWORDS = 0x80 | 0x2
C_API = ("PyLong_Type", "PyFloat_Type", "_Py_TrueStruct", "_Py_FalseStruct", "_Py_NoneStruct",
         "PyLong_AsLongLongAndOverflow", "PyLong_FromLongLong", "PyFloat_FromDouble",
         "PyFloat_AsDouble", "PyEval_SaveThread", "PyEval_RestoreThread", "Py_IncRef",
         "Py_DecRef", "PyObject_Vectorcall", "PyByteArray_AsString")
"""What the body names (resolved when its object code is linked)."""
_KIND = {T.I64: KIND_I64, T.F64: KIND_F64, T.BOOL: KIND_BOOL, T.NONE: KIND_NONE}
_BODY: list = []
_LOCK = threading.Lock()


def wants_builtin(ft) -> bool:
    """Entries of this type get the builtin: int, float and bool parameters (a None one
    is the boundary's business), at most MAX_PARAMS of them, a scalar or None result."""
    return (len(ft.params) <= MAX_PARAMS and ft.ret in _KIND
            and all(t in (T.I64, T.F64, T.BOOL) for t in ft.params))


@functools.lru_cache(maxsize=None)
def available() -> bool:
    """CPython with the object layout the body reads (ob_type one word in) and every
    C-API name it uses exported."""
    try:
        api = ctypes.pythonapi
        for name in C_API:
            getattr(api, name)
        word = ctypes.sizeof(ctypes.c_void_p)
        return ctypes.c_void_p.from_address(id(1.5) + OB_TYPE * word).value == id(float)
    except (AttributeError, ValueError, OSError):
        return False


class Env(bytearray):
    """A builtin's `self`: the table the body reads, and the objects the table points at."""


class _MethodDef(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("meth", ctypes.c_void_p),
                ("flags", ctypes.c_int), ("doc", ctypes.c_char_p)]


def make_builtin(shim: int, ft, args_type, name: str, slow, on_error, image):
    """The builtin calling the struct-argument shim at address `shim` (an entry of type
    ft whose argument block is the ctypes structure args_type, in the loaded `image`), or
    None where this process cannot have one."""
    if not (wants_builtin(ft) and available()):
        return None
    body = _body()
    if body is None:
        return None
    words = [shim, id(slow), id(on_error), len(ft.params), _KIND[ft.ret]]
    words += [_KIND[t] << 32 | getattr(args_type, f"a{i}").offset
              for i, t in enumerate(ft.params)]
    env = Env(bytes((ctypes.c_uint64 * len(words))(*words)))
    env.keep = (slow, on_error, image, body, name.encode())
    env.mdef = _MethodDef(env.keep[-1], body[1], METH_FASTCALL_KEYWORDS, None)
    return _new_ex()(ctypes.addressof(env.mdef), env, None)


def repoint(builtin, shim: int, image) -> None:
    """Make `builtin` (made by make_builtin) call the shim at `shim`, in `image`, from now
    on: one aligned 8-byte store (a call reading the table meanwhile sees the old shim or
    the new one, both loaded); the image joins what the table keeps alive."""
    env = builtin.__self__
    env.images = getattr(env, "images", []) + [image]
    ctypes.c_uint64.from_buffer(env, ENTRY * 8).value = shim


def gate(builtin, closed: bool) -> None:
    """Closed: every call of `builtin` takes its `slow` path (a parameter count no call
    has), where the quick tier counts calls (tiers.Gate); open: its own count again."""
    env = builtin.__self__
    word = ctypes.c_uint64.from_buffer(env, NPARAMS * 8)
    if not hasattr(env, "nparams"):
        env.nparams = word.value
    word.value = GATED if closed else env.nparams


def _body():
    """(loaded image, address) of the body: from this process, the cache, or LLVM; None
    if it cannot be linked here."""
    with _LOCK:
        if not _BODY:
            _BODY.append(_load())
        return _BODY[0]


def _load():
    from ember.llvm import VERSION, _link, cache, host_key

    k = cache.key(VERSION, host_key(), SYMBOL)
    try:
        hit = cache.load(k)
        if hit is not None:
            obj = hit[1]
        else:
            from ember.llvm import jit
            from ember.llvm.pycall import body_ir

            obj = jit.compile_ir(body_ir(*jit.target_triple_layout()), small=True, light=True)
            cache.store(k, {"body": SYMBOL}, obj)
        image = _link(obj)
        return image, image.address(SYMBOL)
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
