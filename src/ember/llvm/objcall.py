"""Calling a native fused group with Python objects: the argument tuple itself.

A ctypes call that marshals pointers (`.ctypes.data` per array, ctypes arrays of
pointers and doubles) costs several microseconds, more than the loop it runs on a small
tensor. The object entry instead takes the call's argument tuple and the output array
as object addresses and reads, natively, what CPython and numpy keep at fixed offsets
of their public structs (PyTupleObject's items, PyFloatObject's value, numpy's
PyArrayObject_fields: data, nd, dimensions, descr, flags). It checks every argument
(exact type, float32 descriptor, C-contiguous and aligned, the first tensor's shape) and
returns 0 without touching anything when one does not match, so the caller takes the
portable path.

The offsets are checked when this module is imported, by reading objects back through
ctypes; where they do not hold (not CPython, another layout) LAYOUT is None and no object
entry is made. Type and descriptor addresses belong to the process, so they are passed
in (CONTEXT), never compiled in: object code stays cacheable.
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np
from llvmlite import ir

from ember.llvm.layout import I64, PTR

I8, I32 = ir.IntType(8), ir.IntType(32)
F64 = ir.DoubleType()
_FLAGS_NEEDED = 0x0001 | 0x0100  # NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED

OFFSETS = {"items": None, "size": 16, "type": 8, "data": 16, "nd": 24, "dims": 32,
           "descr": 56, "flags": 64, "fval": None}


def _read(addr, ctype):
    return ctype.from_address(addr).value


def _check_array(a, o) -> bool:
    base = id(a)
    dims = _read(base + o["dims"], ctypes.c_void_p)
    shape = tuple(_read(dims + 8 * k, ctypes.c_int64) for k in range(a.ndim)) if a.ndim else ()
    return (_read(base + o["data"], ctypes.c_void_p) == a.ctypes.data and
            _read(base + o["nd"], ctypes.c_int32) == a.ndim and shape == a.shape and
            _read(base + o["descr"], ctypes.c_void_p) == id(a.dtype) and
            bool(_read(base + o["flags"], ctypes.c_int32) & 1) == a.flags.c_contiguous and
            _read(base + o["type"], ctypes.c_void_p) == id(type(a)))


def _layout():
    """OFFSETS completed and verified on this interpreter, or None."""
    if sys.implementation.name != "cpython" or tuple.__itemsize__ != 8 or \
            float.__basicsize__ < 24:
        return None
    o = dict(OFFSETS, items=tuple.__basicsize__, fval=float.__basicsize__ - 8)
    try:
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        t = (a, 2.5, a.T)
        if _read(id(t) + o["size"], ctypes.c_int64) != 3 or \
                [_read(id(t) + o["items"] + 8 * k, ctypes.c_void_p) for k in range(3)] != \
                [id(v) for v in t]:
            return None
        if _read(id(t[1]) + o["fval"], ctypes.c_double) != 2.5 or \
                _read(id(t[1]) + o["type"], ctypes.c_void_p) != id(float):
            return None
        if not all(_check_array(v, o) for v in (a, a.T, np.zeros((), np.float32))):
            return None
        return o
    except (ValueError, TypeError, OverflowError, AttributeError):
        return None


LAYOUT = _layout()
_CONTEXT = (ctypes.c_void_p * 3)(id(np.ndarray), id(float), id(np.dtype(np.float32)))
CONTEXT = ctypes.addressof(_CONTEXT)
"""Address of {ndarray type, float type, float32 descriptor}: the entry's third argument."""

ENTRY = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
"""`i64 entry(args tuple, output array or tuple of them, context)`: 1 if it ran."""


def build_entry(module: ir.Module, inner_name: str, arg_kinds, n_out: int, o) -> str:
    """Add `inner_name_o` (see the module) calling `inner_name(tensors, scalars, outs, n)`;
    returns its name."""
    inner = module.globals[inner_name]
    fn = ir.Function(module, ir.FunctionType(I64, [PTR, PTR, PTR]), inner_name + "_o")
    args, outs, ctx = fn.args
    entry, fail = fn.append_basic_block("e"), fn.append_basic_block("fail")
    b = ir.IRBuilder(entry)

    def field(obj, off, typ):
        return b.load(b.gep(obj, [I64(off)], source_etype=I8), typ=typ)

    def check(cond):
        nxt = fn.append_basic_block("ok")
        b.cbranch(cond, nxt, fail)
        b.position_at_end(nxt)

    nd_type, float_type, f32 = (b.load(b.gep(ctx, [I64(k)], source_etype=PTR), typ=PTR)
                                for k in range(3))
    check(b.icmp_signed("==", field(args, o["size"], I64), I64(len(arg_kinds))))
    items = [field(args, o["items"] + 8 * i, PTR) for i in range(len(arg_kinds))]
    first = arg_kinds.index("t")
    nd0 = field(items[first], o["nd"], I32)
    dims0 = field(items[first], o["dims"], PTR)
    size = I64(1)
    tens = b.alloca(ir.ArrayType(PTR, len(arg_kinds)))
    scal = b.alloca(ir.ArrayType(F64, len(arg_kinds)))
    optr = b.alloca(ir.ArrayType(PTR, n_out))
    for i, k in enumerate(arg_kinds):
        item = items[i]
        typ = field(item, o["type"], PTR)
        if k == "s":
            check(b.icmp_unsigned("==", typ, float_type))
            b.store(field(item, o["fval"], F64), b.gep(scal, [I64(0), I64(i)]))
            continue
        check(b.icmp_unsigned("==", typ, nd_type))
        check(b.icmp_unsigned("==", field(item, o["descr"], PTR), f32))
        flags = b.and_(field(item, o["flags"], I32), I32(_FLAGS_NEEDED))
        check(b.icmp_signed("==", flags, I32(_FLAGS_NEEDED)))
        check(b.icmp_signed("==", field(item, o["nd"], I32), nd0))
        size = _same_dims(b, fn, field(item, o["dims"], PTR), dims0, nd0, fail,
                          compute_size=i == first) or size
        b.store(field(item, o["data"], PTR), b.gep(tens, [I64(0), I64(i)]))
    for k in range(n_out):
        arr = outs if n_out == 1 else field(outs, o["items"] + 8 * k, PTR)
        b.store(field(arr, o["data"], PTR), b.gep(optr, [I64(0), I64(k)]))
    b.call(inner, [tens, scal, optr, size])
    b.ret(I64(1))
    b.position_at_end(fail)
    b.ret(I64(0))
    return fn.name


def _same_dims(b, fn, dims, dims0, nd, fail, compute_size):
    """Branch to fail unless dims[:nd] == dims0[:nd]; the element count if compute_size."""
    head, body, done = (fn.append_basic_block(s) for s in ("dh", "db", "dd"))
    pre = b.block
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(I64)
    prod = b.phi(I64)
    k.add_incoming(I64(0), pre)
    prod.add_incoming(I64(1), pre)
    b.cbranch(b.icmp_signed("<", k, b.sext(nd, I64)), body, done)
    b.position_at_end(body)
    d = b.load(b.gep(dims, [k], source_etype=I64), typ=I64)
    d0 = b.load(b.gep(dims0, [k], source_etype=I64), typ=I64)
    same = fn.append_basic_block("ds")
    b.cbranch(b.icmp_signed("==", d, d0), same, fail)
    b.position_at_end(same)
    k.add_incoming(b.add(k, I64(1)), same)
    prod.add_incoming(b.mul(prod, d), same)
    b.branch(head)
    b.position_at_end(done)
    return prod if compute_size else None
