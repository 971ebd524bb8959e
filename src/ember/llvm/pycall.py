"""The fast call path of scalar entries: LLVM IR of one CPython builtin body per signature.

A call through ctypes costs about 0.8 µs before the native function starts (argument
objects converted one by one, the checks in Python, a thread-local context). An entry whose
parameters are int, float and bool and whose result is one of those or None is called
instead through `PyObject *ember_pycall_<sig>(PyObject *self, PyObject *const *args,
Py_ssize_t n, PyObject *kwnames)` (METH_FASTCALL | METH_KEYWORDS). It checks the arguments
exactly as the VM does (`type(v) is int` within int64, `type(v) is float`, `type(v) is
bool`), releases the GIL, calls the entry's direct shim (module.ModuleGen.direct_shim)
with a context block on its own stack, takes the GIL back and boxes the result. Anything
else — keywords, another count or type, an error or deopt status — goes to Python
callables with the VM's semantics: `slow(*args, **kw)` (the boundary's own path) for
arguments, `on_error(ctx_address, *args)` for a status (the VM's exception, or the call
again on the VM for a deopt), so nothing runs twice.

The body depends on the signature only, so it is compiled once per signature (and cached
like any object code, pyentry.py); which function it calls comes from `self`, a bytearray
holding the table [direct shim, slow, on_error] (pyentry.Env).
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm.codegen import CTX
from ember.llvm.layout import I32, I64, PTR, lltype
from ember.llvm.pyentry import DIRECT, OB_TYPE, ON_ERROR, SLOW, symbol

_CODES = {"l": T.I64, "d": T.F64, "b": T.BOOL, "n": T.NONE}


def wrapper_ir(sig: str, triple: str, layout: str) -> str:
    """The module holding the builtin body for `sig` (pyentry.signature: parameter codes,
    '_', the result's code)."""
    params, ret = sig.split("_")
    mod = ir.Module(name=symbol(sig))
    mod.triple, mod.data_layout = triple, layout
    ft = ir.FunctionType(lltype(_CODES[ret]), [PTR] + [lltype(_CODES[c]) for c in params])
    fn = ir.Function(mod, ir.FunctionType(PTR, [PTR, PTR, I64, PTR]), symbol(sig))
    _Body(mod, fn, [_CODES[c] for c in params], _CODES[ret], ft).build()
    return str(mod)


class _Body:
    def __init__(self, mod, fn, params, ret, direct_t):
        self.mod, self.fn, self.params, self.ret, self.direct_t = mod, fn, params, ret, direct_t
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.slow = fn.append_basic_block("slow")
        self.env = None

    def capi(self, name: str, ret, args: list):
        """Call the C-API function `name` (declared on first use)."""
        f = self.mod.globals.get(name)
        if f is None:
            f = ir.Function(self.mod, ir.FunctionType(ret, [a.type for a in args]), name)
        return self.b.call(f, args)

    def capi_object(self, name: str):
        g = self.mod.globals.get(name)
        if g is None:
            g = ir.GlobalVariable(self.mod, ir.IntType(8), name)
        return g

    def slot(self, k: int, typ=PTR):
        b = self.b
        return b.load(b.gep(self.env, [I64(k)], inbounds=True, source_etype=PTR), typ=typ)

    def build(self):
        b = self.b
        self_obj, argv, nargs, kwnames = self.fn.args
        self.env = self.capi("PyByteArray_AsString", PTR, [self_obj])
        ok = b.and_(b.icmp_unsigned("==", nargs, I64(len(self.params))),
                    b.icmp_unsigned("==", kwnames, ir.Constant(PTR, None)))
        self.branch_or_slow(ok)
        values = [self.unbox(b.load(b.gep(argv, [I64(i)], source_etype=PTR), typ=PTR), t)
                  for i, t in enumerate(self.params)]
        ctx = b.alloca(CTX)
        ts = self.capi("PyEval_SaveThread", PTR, [])
        direct = self.slot(DIRECT, self.direct_t.as_pointer())
        r = b.call(direct, [ctx] + values)
        self.capi("PyEval_RestoreThread", ir.VoidType(), [ts])
        status = b.load(b.gep(ctx, [I32(0), I32(5)], inbounds=True, source_etype=CTX),
                        typ=I32)
        bad, good = self.fn.append_basic_block("status"), self.fn.append_basic_block("box")
        b.cbranch(b.icmp_unsigned("!=", status, I32(0)), bad, good)
        b.position_at_end(good)
        b.ret(self.box(r))
        b.position_at_end(bad)
        self.on_error(ctx, argv)
        b.position_at_end(self.slow)
        b.ret(self.capi("PyObject_Vectorcall", PTR, [self.slot(SLOW), argv, nargs, kwnames]))

    def branch_or_slow(self, cond):
        cont = self.fn.append_basic_block("ok")
        self.b.cbranch(cond, cont, self.slow)
        self.b.position_at_end(cont)

    def type_is(self, obj, name: str):
        b = self.b
        ob_type = b.load(b.gep(obj, [I64(OB_TYPE)], source_etype=PTR), typ=PTR)
        return b.icmp_unsigned("==", ob_type, self.capi_object(name))

    def unbox(self, obj, t):
        b = self.b
        if t == T.F64:
            self.branch_or_slow(self.type_is(obj, "PyFloat_Type"))
            return self.capi("PyFloat_AsDouble", ir.DoubleType(), [obj])
        if t == T.BOOL:
            true = b.icmp_unsigned("==", obj, self.capi_object("_Py_TrueStruct"))
            false = b.icmp_unsigned("==", obj, self.capi_object("_Py_FalseStruct"))
            self.branch_or_slow(b.or_(true, false))
            return b.zext(true, lltype(T.BOOL))
        self.branch_or_slow(self.type_is(obj, "PyLong_Type"))
        overflow = b.alloca(I32)
        v = self.capi("PyLong_AsLongLongAndOverflow", I64, [obj, overflow])
        self.branch_or_slow(b.icmp_unsigned("==", b.load(overflow, typ=I32), I32(0)))
        return v

    def box(self, r):
        if self.ret == T.I64:
            return self.capi("PyLong_FromLongLong", PTR, [r])
        if self.ret == T.F64:
            return self.capi("PyFloat_FromDouble", PTR, [r])
        b = self.b
        if self.ret == T.BOOL:
            obj = b.select(b.icmp_unsigned("!=", r, ir.Constant(r.type, 0)),
                           self.capi_object("_Py_TrueStruct"),
                           self.capi_object("_Py_FalseStruct"))
        else:
            obj = self.capi_object("_Py_NoneStruct")
        self.capi("Py_IncRef", ir.VoidType(), [obj])
        return obj

    def on_error(self, ctx, argv):
        """on_error(ctx address, *args): its result (or NULL and its exception) is ours."""
        b = self.b
        n = len(self.params)
        items = b.alloca(PTR, size=I64(n + 1))
        addr = self.capi("PyLong_FromLongLong", PTR, [b.ptrtoint(ctx, I64)])
        made, nomem = self.fn.append_basic_block("made"), self.fn.append_basic_block("nomem")
        b.cbranch(b.icmp_unsigned("==", addr, ir.Constant(PTR, None)), nomem, made)
        b.position_at_end(nomem)
        b.ret(ir.Constant(PTR, None))
        b.position_at_end(made)
        b.store(addr, items)
        for i in range(n):
            arg = b.load(b.gep(argv, [I64(i)], source_etype=PTR), typ=PTR)
            b.store(arg, b.gep(items, [I64(i + 1)], source_etype=PTR))
        out = self.capi("PyObject_Vectorcall", PTR,
                        [self.slot(ON_ERROR), items, I64(n + 1), ir.Constant(PTR, None)])
        self.capi("Py_DecRef", ir.VoidType(), [addr])
        b.ret(out)
