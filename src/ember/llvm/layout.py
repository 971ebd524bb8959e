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

from functools import lru_cache

from llvmlite import ir

from ember.ir import types as T
from ember.llvm.memory import (  # noqa: F401  (their home; imported from here too)
    NotNative, crosses_boundary, ctype, elem_size, is_refcounted, type_key)

I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F64 = ir.DoubleType()
PTR = ir.PointerType()
LIST_HEADER = ir.LiteralStructType([I64, I64, I64, PTR])
"""refcount, len, cap, data."""


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
    if isinstance(t, T.VarTupleType):
        raise NotNative(f"type {t} (a tuple of run-time length)")
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
    if isinstance(t, T.SetType):
        from ember.llvm.set_runtime import check
        check(t)
        return PTR  # set_runtime.py
    if isinstance(t, T.ClassType):
        return PTR  # {i64 refcount, fields…} (object_struct); the class kind is checked by
        # the ops that touch one
    raise NotNative(f"type {t}")


def object_struct(decl) -> ir.LiteralStructType:
    """The heap layout of an object of a user class or NamedTuple: refcount, then fields."""
    return ir.LiteralStructType([I64] + [lltype(t) for _, t in decl.fields])
