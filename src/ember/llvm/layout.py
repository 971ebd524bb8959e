"""Value layouts: how each IR type lives in native code and crosses the call boundary.

| IR type        | LLVM value                         | in memory / ctypes              |
|----------------|------------------------------------|---------------------------------|
| `i64`          | `i64`                              | `c_int64`                       |
| `f64`          | `double`                           | `c_double`                      |
| `bool`, `none` | `i8` (0 / 1; none is always 0)     | `c_uint8`                       |
| `list<T>`      | `ptr` to a list header             | `c_void_p`                      |
| `tuple<A, B>`  | `{A, B}` by value                  | a `Structure` of the members    |
| `optional<T>`  | `{i8 present, T}` by value         | a `Structure(present, value)`   |

A list header is `{i64 refcount, i64 len, i64 cap, ptr data}`, allocated with the C
library's malloc; `data` holds `cap` elements of the element type's memory layout.
Lists are reference counted (docs/architecture.md, "The LLVM backend").
"""

from __future__ import annotations

import ctypes
from functools import lru_cache

from llvmlite import ir

from ember.ir import types as T

I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F64 = ir.DoubleType()
PTR = ir.PointerType()
LIST_HEADER = ir.LiteralStructType([I64, I64, I64, PTR])
"""refcount, len, cap, data."""


class NotNative(Exception):
    """A type or construct the native tier does not compile (the reason is the message)."""


def is_native_type(t: T.Type) -> bool:
    try:
        lltype(t)
        return True
    except NotNative:
        return False


@lru_cache(maxsize=None)
def lltype(t: T.Type) -> ir.Type:
    """The LLVM type of a value of IR type t (NotNative if it has none)."""
    if t == T.I64:
        return I64
    if t == T.F64:
        return F64
    if t in (T.BOOL, T.NONE):
        return I8
    if isinstance(t, T.ListType):
        lltype(t.elem)
        return PTR
    if isinstance(t, T.TupleType):
        return ir.LiteralStructType([lltype(e) for e in t.elems])
    if isinstance(t, T.OptionalType):
        if isinstance(t.elem, T.OptionalType):
            raise NotNative(f"type {t}")
        return ir.LiteralStructType([I8, lltype(t.elem)])
    if isinstance(t, T.DictType):
        if t.key not in (T.I64, T.BOOL):
            raise NotNative(f"type {t} (dict keys other than int and bool)")
        lltype(t.value)
        return PTR  # ops_dict.py
    if isinstance(t, T.ClassType):
        return PTR  # {i64 refcount, fields…} (object_struct); the class kind is checked by
        # the ops that touch one
    raise NotNative(f"type {t}")


def object_struct(decl) -> ir.LiteralStructType:
    """The heap layout of an object of a user class or NamedTuple: refcount, then fields."""
    return ir.LiteralStructType([I64] + [lltype(t) for _, t in decl.fields])


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
    if isinstance(t, (T.ListType, T.ClassType, T.DictType)):
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
    if isinstance(t, T.ClassType):
        return ctypes.sizeof(ctypes.c_void_p)
    return ctypes.sizeof(ctype(t))
