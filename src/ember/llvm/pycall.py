"""The fast call path of scalar entries: the LLVM IR of one CPython builtin body for all.

A call through ctypes costs about 0.8 µs before the native function starts (argument
objects converted one by one, the checks in Python, a thread-local context). An entry whose
parameters are int, float and bool and whose result is one of those or None is called
instead through `PyObject *ember_pycall(PyObject *self, PyObject *const *args, Py_ssize_t
n, PyObject *kwnames)` (METH_FASTCALL | METH_KEYWORDS). `self` is the entry's table
(pyentry.Env, a bytearray): its struct-argument shim (module.ModuleGen.entry_shim), the two
Python callables below, its parameter count, result kind and, per parameter, kind and
offset in the argument block. The body checks the arguments exactly as the VM does
(`type(v) is int` within int64, `type(v) is float`, `type(v) is bool`) while it writes the
block, releases the GIL, calls the shim with a context block on its own stack, takes the
GIL back and boxes the result. Anything else — keywords, another count or type, an error
or deopt status — goes to `slow(*args, **kw)` (the boundary's own path) or
`on_error(ctx_address, *args)` (the VM's exception, or the call again on the VM for a
deopt), so messages are the VM's and nothing runs twice.

One body serves every signature: it is compiled once per machine and kept in ember's
object cache (pyentry.py).
"""

from __future__ import annotations

from llvmlite import ir

from ember.llvm.codegen import CTX
from ember.llvm.layout import I8, I32, I64, PTR
from ember.llvm.pyentry import (
    ENTRY, KIND_BOOL, KIND_F64, KIND_I64, MAX_PARAMS, NPARAMS, ON_ERROR, OB_TYPE, PARAMS, RESULT,
    SLOW, SYMBOL,
)

F64 = ir.DoubleType()


def body_ir(triple: str, layout: str) -> str:
    """The module holding the builtin body."""
    mod = ir.Module(name=SYMBOL)
    mod.triple, mod.data_layout = triple, layout
    fn = ir.Function(mod, ir.FunctionType(PTR, [PTR, PTR, I64, PTR]), SYMBOL)
    _Body(mod, fn).build()
    return str(mod)


class _Body:
    def __init__(self, mod, fn):
        self.mod, self.fn = mod, fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.slow = fn.append_basic_block("slow")
        self.env = None

    def block(self, name: str):
        return self.fn.append_basic_block(name)

    def capi(self, name: str, ret, args: list):
        """Call the C-API function `name` (declared on first use)."""
        f = self.mod.globals.get(name)
        if f is None:
            f = ir.Function(self.mod, ir.FunctionType(ret, [a.type for a in args]), name)
        return self.b.call(f, args)

    def capi_object(self, name: str):
        g = self.mod.globals.get(name)
        return g if g is not None else ir.GlobalVariable(self.mod, I8, name)

    def word(self, k, typ=I64):
        b = self.b
        k = k if isinstance(k, ir.Value) else I64(k)
        return b.load(b.gep(self.env, [k], inbounds=True, source_etype=I64), typ=typ)

    def build(self):
        b = self.b
        self_obj, argv, nargs, kwnames = self.fn.args
        block = b.alloca(I64, size=I64(MAX_PARAMS))
        ret = b.alloca(I64)
        ctx = b.alloca(CTX)
        overflow = b.alloca(I32)
        i_slot = b.alloca(I64)
        self.env = self.capi("PyByteArray_AsString", PTR, [self_obj])
        n = self.word(NPARAMS)
        self.or_slow(b.and_(b.icmp_unsigned("==", nargs, n),
                            b.icmp_unsigned("==", kwnames, ir.Constant(PTR, None))))
        self.unbox_all(argv, n, block, overflow, i_slot)
        ts = self.capi("PyEval_SaveThread", PTR, [])
        shim_t = ir.FunctionType(I32, [PTR, PTR, PTR])
        status = b.call(self.word(ENTRY, shim_t.as_pointer()), [ctx, ret, block])
        self.capi("PyEval_RestoreThread", ir.VoidType(), [ts])
        bad, good = self.block("status"), self.block("box")
        b.cbranch(b.icmp_unsigned("!=", status, I32(0)), bad, good)
        b.position_at_end(good)
        self.box(ret)
        b.position_at_end(bad)
        self.on_error(ctx, argv, n)
        b.position_at_end(self.slow)
        b.ret(self.capi("PyObject_Vectorcall", PTR,
                        [self.word(SLOW, PTR), argv, nargs, kwnames]))

    def or_slow(self, cond):
        cont = self.block("ok")
        self.b.cbranch(cond, cont, self.slow)
        self.b.position_at_end(cont)

    def unbox_all(self, argv, n, block, overflow, i_slot):
        """Each argument into the block at its offset, as its kind says (else: slow)."""
        b = self.b
        b.store(I64(0), i_slot)
        head, body, done = self.block("arg.head"), self.block("arg"), self.block("args.done")
        b.branch(head)
        b.position_at_end(head)
        i = b.load(i_slot, typ=I64)
        b.cbranch(b.icmp_unsigned("<", i, n), body, done)
        b.position_at_end(body)
        obj = b.load(b.gep(argv, [i], source_etype=PTR), typ=PTR)
        desc = self.word(b.add(i, I64(PARAMS)))
        at = b.gep(block, [b.and_(desc, I64(0xFFFFFFFF))], source_etype=I8)
        kind = b.lshr(desc, I64(32))
        nxt = self.block("arg.next")
        sw = b.switch(kind, self.slow)
        for k, emit in ((KIND_I64, self.unbox_int), (KIND_F64, self.unbox_float),
                        (KIND_BOOL, self.unbox_bool)):
            case = self.block(f"arg.{k}")
            sw.add_case(I64(k), case)
            b.position_at_end(case)
            emit(obj, at, overflow)
            b.branch(nxt)
        b.position_at_end(nxt)
        b.store(b.add(i, I64(1)), i_slot)
        b.branch(head)
        b.position_at_end(done)

    def type_is(self, obj, name: str):
        b = self.b
        ob_type = b.load(b.gep(obj, [I64(OB_TYPE)], source_etype=PTR), typ=PTR)
        return b.icmp_unsigned("==", ob_type, self.capi_object(name))

    def store(self, v, at):
        """v at byte address `at` of the argument block."""
        self.b.store(v, self.b.bitcast(at, v.type.as_pointer()))

    def unbox_int(self, obj, at, overflow):
        self.or_slow(self.type_is(obj, "PyLong_Type"))
        v = self.capi("PyLong_AsLongLongAndOverflow", I64, [obj, overflow])
        self.or_slow(self.b.icmp_unsigned("==", self.b.load(overflow, typ=I32), I32(0)))
        self.store(v, at)

    def unbox_float(self, obj, at, overflow):
        self.or_slow(self.type_is(obj, "PyFloat_Type"))
        self.store(self.capi("PyFloat_AsDouble", F64, [obj]), at)

    def unbox_bool(self, obj, at, overflow):
        b = self.b
        true = b.icmp_unsigned("==", obj, self.capi_object("_Py_TrueStruct"))
        false = b.icmp_unsigned("==", obj, self.capi_object("_Py_FalseStruct"))
        self.or_slow(b.or_(true, false))
        self.store(b.zext(true, I8), at)

    def box(self, ret):
        b = self.b
        sw = b.switch(self.word(RESULT), self.block("none"))
        none = sw.default
        for k, name in ((KIND_I64, "int"), (KIND_F64, "float"), (KIND_BOOL, "bool")):
            case = self.block(f"box.{name}")
            sw.add_case(I64(k), case)
            b.position_at_end(case)
            if k == KIND_I64:
                b.ret(self.capi("PyLong_FromLongLong", PTR, [b.load(ret, typ=I64)]))
            elif k == KIND_F64:
                b.ret(self.capi("PyFloat_FromDouble", PTR, [b.load(ret, typ=F64)]))
            else:
                true = b.icmp_unsigned("!=", b.load(ret, typ=I8), I8(0))
                self.ret_object(b.select(true, self.capi_object("_Py_TrueStruct"),
                                         self.capi_object("_Py_FalseStruct")))
        b.position_at_end(none)
        self.ret_object(self.capi_object("_Py_NoneStruct"))

    def ret_object(self, obj):
        self.capi("Py_IncRef", ir.VoidType(), [obj])
        self.b.ret(obj)

    def on_error(self, ctx, argv, n):
        """on_error(ctx address, *args): its result (or NULL and its exception) is ours."""
        b = self.b
        items = b.alloca(PTR, size=I64(MAX_PARAMS + 1))
        addr = self.capi("PyLong_FromLongLong", PTR, [b.ptrtoint(ctx, I64)])
        made, nomem = self.block("made"), self.block("nomem")
        b.cbranch(b.icmp_unsigned("==", addr, ir.Constant(PTR, None)), nomem, made)
        b.position_at_end(nomem)
        b.ret(ir.Constant(PTR, None))
        b.position_at_end(made)
        b.store(addr, items)
        rest = b.gep(items, [I64(1)], source_etype=PTR)
        b.call(self.memcpy(), [rest, argv, b.mul(n, I64(8)), ir.Constant(ir.IntType(1), 0)])
        out = self.capi("PyObject_Vectorcall", PTR,
                        [self.word(ON_ERROR, PTR), items, b.add(n, I64(1)),
                         ir.Constant(PTR, None)])
        self.capi("Py_DecRef", ir.VoidType(), [addr])
        b.ret(out)

    def memcpy(self):
        return self.mod.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64])
