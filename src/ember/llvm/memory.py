"""The memory side of value layouts (layout.py has the LLVM side): which types hold heap
references, their ctypes mirrors and sizes. No llvmlite here: a cache hit loads native
code and converts values at the boundary without importing llvmlite."""

from __future__ import annotations

import ctypes
from functools import lru_cache

from ember.ir import types as T


class NotNative(Exception):
    """A type or construct the native tier does not compile (the reason is the message)."""


def crosses_boundary(t: T.Type) -> bool:
    """Values of t can be converted to and from Python at a native entry."""
    if isinstance(t, T.ListType):
        return crosses_boundary(t.elem)
    if isinstance(t, T.TupleType):
        return all(crosses_boundary(e) for e in t.elems)
    if isinstance(t, T.OptionalType):
        return crosses_boundary(t.elem)
    return t in (T.I64, T.F64, T.BOOL, T.NONE)


def is_refcounted(t: T.Type) -> bool:
    """Values of t hold heap references (a retain/release touches them)."""
    if isinstance(t, (T.ListType, T.ClassType, T.DictType, T.SetType)):
        return True
    if isinstance(t, T.TupleType):
        return any(is_refcounted(e) for e in t.elems)
    if isinstance(t, T.OptionalType):
        return is_refcounted(t.elem)
    return False


def type_key(t: T.Type) -> str:
    """A symbol-safe name for t, used to name per-type runtime helpers."""
    s = str(t)
    out = []
    for ch in s:
        out.append(ch if ch.isalnum() else "_")
    return "".join(out)


@lru_cache(maxsize=None)
def ctype(t: T.Type):
    """The ctypes type that matches lltype(t) in memory."""
    if t == T.I64:
        return ctypes.c_int64
    if t == T.F64:
        return ctypes.c_double
    if t in (T.BOOL, T.NONE):
        return ctypes.c_uint8
    if isinstance(t, T.ListType):
        return ctypes.c_void_p
    if isinstance(t, T.TupleType):
        fields = [(f"f{i}", ctype(e)) for i, e in enumerate(t.elems)]
        return type("Tuple", (ctypes.Structure,), {"_fields_": fields})
    if isinstance(t, T.OptionalType):
        fields = [("present", ctypes.c_uint8), ("value", ctype(t.elem))]
        return type("Optional", (ctypes.Structure,), {"_fields_": fields})
    raise NotNative(f"type {t}")


def elem_size(t: T.Type) -> int:
    if isinstance(t, (T.ClassType, T.SetType)):
        return ctypes.sizeof(ctypes.c_void_p)
    return ctypes.sizeof(ctype(t))
