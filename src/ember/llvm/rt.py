"""Native runtime support, emitted as LLVM IR into each module: lists and reference counts.

A list is a malloc'd header `{i64 refcount, i64 len, i64 cap, ptr data}`; `data` is a
malloc'd array of `cap` elements (at least one, so it is never NULL). Every helper is
`internal` to its module (no symbol clashes between modules) except those the call
boundary needs, which are exported with the module's prefix (see boundary.py).
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm.layout import I8, I32, I64, LIST_HEADER, PTR, elem_size, is_refcounted, \
    lltype, type_key

RC, LEN, CAP, DATA = 0, 1, 2, 3
_SET_HEADER = ir.LiteralStructType([I64] * 5 + [PTR])
"""A set's header (set_runtime.py): refcount, fill, used, mask, finger, table."""


def count_loop(b: ir.IRBuilder, counter, n, body, start=None) -> None:
    """for i in range(start or 0, n): body(i), with counter an i64 slot (alloca) to use.
    The one shape of every counted loop the runtime and the emitters make."""
    b.store(start if start is not None else I64(0), counter)
    head, blk, done = (b.append_basic_block(x) for x in ("loop.head", "loop.body",
                                                          "loop.done"))
    b.branch(head)
    b.position_at_end(head)
    i = b.load(counter, typ=I64)
    b.cbranch(b.icmp_signed("<", i, n), blk, done)
    b.position_at_end(blk)
    body(i)
    b.store(b.add(b.load(counter, typ=I64), I64(1)), counter)
    b.branch(head)
    b.position_at_end(done)


def field_ptr(b: ir.IRBuilder, lst, index: int):
    return b.gep(lst, [I32(0), I32(index)], inbounds=True, source_etype=LIST_HEADER)


def load_field(b, lst, index: int):
    return b.load(field_ptr(b, lst, index), typ=PTR if index == DATA else I64)


def store_field(b, lst, index: int, value):
    b.store(value, field_ptr(b, lst, index))


def elem_ptr(b, lst, i, elem: T.Type):
    data = load_field(b, lst, DATA)
    return b.gep(data, [i], inbounds=True, source_etype=lltype(elem))


class Runtime:
    """The helpers of one LLVM module, made on first use."""

    def __init__(self, module: ir.Module, classes: dict | None = None):
        self.m = module
        self.classes = classes or {}
        self._fns: dict[str, ir.Function] = {}
        self.malloc = self._declare("malloc", PTR, [I64])
        self.free = self._declare("free", ir.VoidType(), [PTR])
        self.realloc = self._declare("realloc", PTR, [PTR, I64])
        self.memmove = module.declare_intrinsic("llvm.memmove", [PTR, PTR, I64])

    def _declare(self, name, ret, args):
        fn = ir.Function(self.m, ir.FunctionType(ret, args), name)
        return fn

    def declare_libm(self, name: str, nargs: int) -> ir.Function:
        key = "libm." + name
        if key not in self._fns:
            fn = ir.Function(self.m, ir.FunctionType(ir.DoubleType(), [ir.DoubleType()] * nargs),
                             name)
            self._fns[key] = fn
        return self._fns[key]

    def _new(self, name, ret, args) -> tuple[ir.Function, ir.IRBuilder]:
        fn = ir.Function(self.m, ir.FunctionType(ret, args), name)
        fn.linkage = "internal"
        self._fns[name] = fn
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    # -- allocation ---------------------------------------------------------------------
    def list_alloc(self) -> ir.Function:
        """ptr list_alloc(i64 len, i64 elem_size): a list of len uninitialized elements."""
        name = "ember.list_alloc"
        if name in self._fns:
            return self._fns[name]
        fn, b = self._new(name, PTR, [I64, I64])
        n, esize = fn.args
        cap = b.select(b.icmp_signed("<", n, I64(1)), I64(1), n)
        hdr = b.call(self.malloc, [I64(32)])
        data = b.call(self.malloc, [b.mul(cap, esize)])
        store_field(b, hdr, RC, I64(1))
        store_field(b, hdr, LEN, n)
        store_field(b, hdr, CAP, cap)
        store_field(b, hdr, DATA, data)
        b.ret(hdr)
        return fn

    def list_reserve(self) -> ir.Function:
        """void list_reserve(ptr list, i64 need, i64 elem_size): capacity >= need."""
        name = "ember.list_reserve"
        if name in self._fns:
            return self._fns[name]
        fn, b = self._new(name, ir.VoidType(), [PTR, I64, I64])
        lst, need, esize = fn.args
        cap = load_field(b, lst, CAP)
        with b.if_then(b.icmp_signed(">", need, cap), likely=False):
            twice = b.mul(cap, I64(2))
            newcap = b.select(b.icmp_signed(">", need, twice), need, twice)
            newcap = b.select(b.icmp_signed("<", newcap, I64(4)), I64(4), newcap)
            data = b.call(self.realloc, [load_field(b, lst, DATA), b.mul(newcap, esize)])
            store_field(b, lst, DATA, data)
            store_field(b, lst, CAP, newcap)
        b.ret_void()
        return fn

    def new_list(self, b: ir.IRBuilder, n, elem: T.Type):
        return b.call(self.list_alloc(), [n, I64(elem_size(elem))])

    def reserve(self, b: ir.IRBuilder, lst, need, elem: T.Type):
        b.call(self.list_reserve(), [lst, need, I64(elem_size(elem))])

    # -- reference counts ---------------------------------------------------------------
    def retain(self, b: ir.IRBuilder, v, t: T.Type) -> None:
        """+1 on every heap reference v holds."""
        if isinstance(t, (T.ListType, T.ClassType, T.DictType, T.SetType)):  # count first
            p = field_ptr(b, v, RC)
            b.store(b.add(b.load(p, typ=I64), I64(1)), p)
        elif is_refcounted(t):
            b.call(self._retain_fn(t), [v])

    def release(self, b: ir.IRBuilder, v, t: T.Type) -> None:
        """-1 on every list reference v holds; a list whose count reaches 0 is freed."""
        if is_refcounted(t):
            b.call(self._release_fn(t), [v])

    def _retain_fn(self, t: T.Type) -> ir.Function:
        name = "ember.retain." + type_key(t)
        if name in self._fns:
            return self._fns[name]
        fn, b = self._new(name, ir.VoidType(), [lltype(t)])
        self._each_member(b, fn.args[0], t, self.retain)
        b.ret_void()
        return fn

    def _release_fn(self, t: T.Type) -> ir.Function:
        name = "ember.release." + type_key(t)
        if name in self._fns:
            return self._fns[name]
        fn, b = self._new(name, ir.VoidType(), [lltype(t)])
        v = fn.args[0]
        if isinstance(t, (T.ListType, T.ClassType, T.DictType, T.SetType)):  # null: unset
            live, null = fn.append_basic_block("live"), fn.append_basic_block("null")
            b.cbranch(b.icmp_unsigned("==", v, ir.Constant(PTR, None)), null, live)
            b.position_at_end(null)
            b.ret_void()
            b.position_at_end(live)
        if isinstance(t, T.ListType):
            counter = b.alloca(I64) if is_refcounted(t.elem) else None
            p = field_ptr(b, v, RC)
            rc = b.sub(b.load(p, typ=I64), I64(1))
            b.store(rc, p)
            with b.if_then(b.icmp_signed("==", rc, I64(0)), likely=False):
                if counter is not None:
                    self._release_elements(b, v, t.elem, counter)
                b.call(self.free, [load_field(b, v, DATA)])
                b.call(self.free, [v])
        elif isinstance(t, T.ClassType):
            self._release_object(b, v, t)
        elif isinstance(t, T.DictType):
            from ember.llvm.ops_dict import release_dict

            p = field_ptr(b, v, RC)
            rc = b.sub(b.load(p, typ=I64), I64(1))
            b.store(rc, p)
            with b.if_then(b.icmp_signed("==", rc, I64(0)), likely=False):
                release_dict(self, b, v, t)
        elif isinstance(t, T.SetType):
            p = field_ptr(b, v, RC)
            rc = b.sub(b.load(p, typ=I64), I64(1))
            b.store(rc, p)
            with b.if_then(b.icmp_signed("==", rc, I64(0)), likely=False):
                b.call(self.free, [b.load(b.gep(v, [I32(0), I32(5)], inbounds=True,
                                                source_etype=_SET_HEADER), typ=PTR)])
                b.call(self.free, [v])
        else:
            self._each_member(b, v, t, self.release)
        b.ret_void()
        return fn

    def _release_object(self, b, v, t: T.ClassType) -> None:
        from ember.llvm.layout import object_struct

        decl = self.classes[t.name]
        st = object_struct(decl)
        p = b.gep(v, [I32(0), I32(0)], inbounds=True, source_etype=st)
        rc = b.sub(b.load(p, typ=I64), I64(1))
        b.store(rc, p)
        with b.if_then(b.icmp_signed("==", rc, I64(0)), likely=False):
            for i, (_, ft) in enumerate(decl.fields):
                if is_refcounted(ft):
                    fp = b.gep(v, [I32(0), I32(i + 1)], inbounds=True, source_etype=st)
                    self.release(b, b.load(fp, typ=lltype(ft)), ft)
            b.call(self.free, [v])

    def _each_member(self, b, v, t, action):
        if isinstance(t, T.TupleType):
            for i, e in enumerate(t.elems):
                if is_refcounted(e):
                    action(b, b.extract_value(v, i), e)
        elif isinstance(t, T.OptionalType):
            present = b.icmp_unsigned("!=", b.extract_value(v, 0), I8(0))
            with b.if_then(present):
                action(b, b.extract_value(v, 1), t.elem)

    def _release_elements(self, b, lst, elem: T.Type, counter):
        n = load_field(b, lst, LEN)
        b.store(I64(0), counter)
        head = b.append_basic_block("rel.head")
        body = b.append_basic_block("rel.body")
        done = b.append_basic_block("rel.done")
        b.branch(head)
        b.position_at_end(head)
        i = b.load(counter, typ=I64)
        b.cbranch(b.icmp_signed("<", i, n), body, done)
        b.position_at_end(body)
        self.release(b, b.load(elem_ptr(b, lst, i, elem), typ=lltype(elem)), elem)
        b.store(b.add(i, I64(1)), counter)
        b.branch(head)
        b.position_at_end(done)

    def export_release(self, t: T.Type, symbol: str) -> None:
        """An exported `void symbol(ptr slot)` that releases the value stored at slot."""
        fn = ir.Function(self.m, ir.FunctionType(ir.VoidType(), [PTR]), symbol)
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.release(b, b.load(fn.args[0], typ=lltype(t)), t)
        b.ret_void()
