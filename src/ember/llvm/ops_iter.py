"""Iterator values natively (iter(), next(), map/filter/zip/enumerate/reversed, ranges).

On the VM an iterator is CPython's own lazy iterator (ops/scalar_iter.py). Natively, an
iterator that lives inside the function that makes it is a compile-time shape (`It`:
which kind, over which operands or child iterators, calling which function) whose
run-time state — position, a done flag, the current element — sits in the function's
entry-block slots. Each `advance` is emitted inline from the shape, so producing an
element costs what the equivalent loop costs. Every kind keeps CPython's semantics: list
iterators read the list's current length at each step (they see appends) and let go of
it once exhausted; map and zip advance their inputs left to right and stop at the first
exhausted one (having consumed from those before it); filter calls its function on each
element in turn; a function's exception propagates from the step that calls it.
An iterator that escapes (passed to a call, returned, stored, carried by a loop or an
`if`) has no native layout: its function stays on the VM.
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.codegen import Static
from ember.llvm.layout import I1, I8, I64, NotNative, is_refcounted, lltype
from ember.llvm.ops_table import emitter, fail, load_elem, to_i8

TRUE, FALSE = ir.Constant(I1, 1), ir.Constant(I1, 0)


class It:
    """A native iterator's shape; `cur` holds the element the last advance produced."""

    def __init__(self, g, elem: T.Type):
        if is_refcounted(elem):
            raise NotNative(f"an iterator of {elem}")
        self.elem = elem
        self.cur = g.slot(elem)

    def advance(self, g):
        """Emit one step: an i1 (an element was produced, now in `cur`)."""
        raise NotImplementedError


class ListIt(It):
    def __init__(self, g, lst, elem):
        super().__init__(g, elem)
        self.lst, self.idx, self.done = lst, g.slot(T.I64), g.slot(T.BOOL)
        g.b.store(I64(0), self.idx)
        g.b.store(I8(0), self.done)

    def advance(self, g):
        b = g.b
        i = b.load(self.idx, typ=I64)
        live = b.icmp_unsigned("==", b.load(self.done, typ=I8), I8(0))
        ok = b.and_(live, b.icmp_signed("<", i, RT.load_field(b, self.lst, RT.LEN)))
        with b.if_else(ok) as (yes, no):
            with yes:
                b.store(load_elem(g, self.lst, i, self.elem), self.cur)
                b.store(b.add(i, I64(1)), self.idx)
            with no:
                b.store(I8(1), self.done)  # exhausted for good (CPython drops the list)
        return ok


class ReversedListIt(It):
    def __init__(self, g, lst, elem):
        super().__init__(g, elem)
        self.lst, self.idx = lst, g.slot(T.I64)
        g.b.store(g.b.sub(RT.load_field(g.b, lst, RT.LEN), I64(1)), self.idx)

    def advance(self, g):
        b = g.b
        i = b.load(self.idx, typ=I64)
        ok = b.and_(b.icmp_signed(">=", i, I64(0)),
                    b.icmp_signed("<", i, RT.load_field(b, self.lst, RT.LEN)))
        with b.if_else(ok) as (yes, no):
            with yes:
                b.store(load_elem(g, self.lst, i, self.elem), self.cur)
                b.store(b.sub(i, I64(1)), self.idx)
            with no:
                b.store(I64(-1), self.idx)
        return ok


class RangeIt(It):
    """range(start, stop, step) forwards, or reversed: element k is start + k * step, or
    start + (n - 1 - k) * step."""

    def __init__(self, g, op, start, stop, step, reverse: bool):
        from ember.llvm.ops_more import _range_len_v
        super().__init__(g, T.I64)
        b = g.b
        fail(g, op, b.icmp_signed("==", step, I64(0)), [start, stop, step],
             kinds=("i64", "i64", "i64"), cls="ValueError")
        self.start, self.step, self.reverse = start, step, reverse
        self.n, self.k = _range_len_v(g, op, start, stop, step), g.slot(T.I64)
        b.store(I64(0), self.k)

    def advance(self, g):
        b = g.b
        k = b.load(self.k, typ=I64)
        ok = b.icmp_signed("<", k, self.n)
        with b.if_then(ok):
            at = b.sub(b.sub(self.n, I64(1)), k) if self.reverse else k
            b.store(b.add(self.start, b.mul(at, self.step)), self.cur)
            b.store(b.add(k, I64(1)), self.k)
        return ok


class MapIt(It):
    """map(f, *its) (f None: zip(*its)): each input advanced in turn, stopping at the first
    exhausted one."""

    def __init__(self, g, op, fn, kids, elem):
        super().__init__(g, elem)
        self.fn, self.kids, self.loc = fn, kids, op.loc

    def advance(self, g):
        b = g.b
        out = g.slot(T.BOOL)
        b.store(I8(0), out)
        done = b.append_basic_block("map.done")
        vals = []
        for kid in self.kids:  # (each value read at once: zip(it, it) shares one state)
            more = b.append_basic_block("map.more")
            b.cbranch(kid.advance(g), more, done)
            b.position_at_end(more)
            vals.append(b.load(kid.cur, typ=lltype(kid.elem)))
        b.store(self._value(g, vals), self.cur)
        b.store(I8(1), out)
        b.branch(done)
        b.position_at_end(done)
        return b.icmp_unsigned("!=", b.load(out, typ=I8), I8(0))

    def _value(self, g, vals):
        if self.fn is None:
            agg = ir.Constant(lltype(self.elem), None)
            for i, v in enumerate(vals):
                agg = g.b.insert_value(agg, v, i)
            return agg
        return call(g, self.fn, vals, self.loc)


class FilterIt(It):
    """filter(f, it) (f None: the elements' own truth): the first element that passes."""

    def __init__(self, g, op, fn, kid):
        super().__init__(g, kid.elem)
        self.fn, self.kid, self.loc = fn, kid, op.loc
        self.fn_t = op.operands[0].type.ret if fn is not None else None

    def advance(self, g):
        b = g.b
        head, test, found, done = (b.append_basic_block(x) for x in
                                   ("filter.head", "filter.test", "filter.found",
                                    "filter.done"))
        out = g.slot(T.BOOL)
        b.store(I8(0), out)
        b.branch(head)
        b.position_at_end(head)
        b.cbranch(self.kid.advance(g), test, done)
        b.position_at_end(test)
        v = b.load(self.kid.cur, typ=lltype(self.elem))
        if self.fn is None:
            keep = truth(g, v, self.elem)
        else:
            keep = truth(g, call(g, self.fn, [v], self.loc), self.fn_t)
        b.cbranch(keep, found, head)
        b.position_at_end(found)
        b.store(v, self.cur)
        b.store(I8(1), out)
        b.branch(done)
        b.position_at_end(done)
        return b.icmp_unsigned("!=", b.load(out, typ=I8), I8(0))


class EnumerateIt(It):
    def __init__(self, g, kid, start, elem):
        super().__init__(g, elem)
        self.kid, self.count = kid, g.slot(T.I64)
        g.b.store(start, self.count)

    def advance(self, g):
        b = g.b
        ok = self.kid.advance(g)
        with b.if_then(ok):
            n = b.load(self.count, typ=I64)
            agg = b.insert_value(ir.Constant(lltype(self.elem), None), n, 0)
            b.store(b.insert_value(agg, b.load(self.kid.cur, typ=lltype(self.kid.elem)), 1),
                    self.cur)
            b.store(b.add(n, I64(1)), self.count)
        return ok


def call(g, fn, vals, loc):
    if not (isinstance(fn, Static) and fn.kind == "closure"):
        raise NotNative("an iterator calling a function value")
    name, caps = fn.value
    return g._direct_call(name, list(caps) + vals, loc)


def truth(g, v, t):
    b = g.b
    if t in (T.BOOL, T.I64):
        return b.icmp_unsigned("!=", v, ir.Constant(v.type, 0))
    if t == T.F64:
        return b.fcmp_unordered("une", v, ir.Constant(v.type, 0.0))
    raise NotNative(f"the truth of a {t} in filter()")


def iterate(g, v, t) -> It:
    """The iterator over operand v of type t (an iterator value, or a list)."""
    if isinstance(t, T.IterType):
        it = g.get(v)
        if not (isinstance(it, Static) and it.kind == "iter"):
            raise NotNative("an iterator made outside this function")
        return it.value
    if isinstance(t, T.ListType):
        return ListIt(g, g.native(v), t.elem)
    raise NotNative(f"an iterator over a {t}")


def _it(g, op) -> It:
    return iterate(g, op.operands[0], op.operands[0].type)


def _elem(op):
    return op.result.type.elem


@emitter("iter.of")
def _of(g, op):
    return Static("iter", _it(g, op))


@emitter("iter.range", "iter.reversed_range")
def _range(g, op):
    lo, hi, step = (g.native(v) for v in op.operands)
    return Static("iter", RangeIt(g, op, lo, hi, step, op.name == "iter.reversed_range"))


@emitter("iter.reversed")
def _reversed(g, op):
    t = op.operands[0].type
    if not isinstance(t, T.ListType):
        raise NotNative(f"reversed() of a {t} as a value")
    return Static("iter", ReversedListIt(g, g.native(op.operands[0]), t.elem))


def _map(g, op):
    kids = [iterate(g, v, v.type) for v in op.operands[1:]]
    return Static("iter", MapIt(g, op, g.get(op.operands[0]), kids, _elem(op)))


def _zip(g, op):
    kids = [iterate(g, v, v.type) for v in op.operands]
    return Static("iter", MapIt(g, op, None, kids, _elem(op)))


for _n in range(1, 5):
    emitter(f"iter.map{_n}")(_map)
    emitter(f"iter.zip{_n}")(_zip)


@emitter("iter.filter")
def _filter(g, op):
    kid = iterate(g, op.operands[1], op.operands[1].type)
    return Static("iter", FilterIt(g, op, g.get(op.operands[0]), kid))


@emitter("iter.filter_none")
def _filter_none(g, op):
    return Static("iter", FilterIt(g, op, None, _it(g, op)))


@emitter("iter.enumerate")
def _enumerate(g, op):
    return Static("iter", EnumerateIt(g, _it(g, op), g.native(op.operands[1]), _elem(op)))


@emitter("iter.advance")
def _advance(g, op):
    return to_i8(g.b, _it(g, op).advance(g))


@emitter("iter.current")
def _current(g, op):
    it = _it(g, op)
    return g.b.load(it.cur, typ=lltype(it.elem))


@emitter("iter.next")
def _next(g, op):
    it = _it(g, op)
    fail(g, op, g.b.not_(it.advance(g)), [], kernel="iter.stop", kinds=(),
         cls="StopIteration")
    return g.b.load(it.cur, typ=lltype(it.elem))


@emitter("iter.next_default")
def _next_default(g, op):
    it = _it(g, op)
    dflt = g.native(op.operands[1])
    ok = it.advance(g)
    return g.b.select(ok, g.b.load(it.cur, typ=lltype(it.elem)), dflt)


@emitter("iter.contains")
def _contains(g, op):
    """`x in it`: consumes the iterator up to and including the first equal element."""
    it = _it(g, op)
    x = g.native(op.operands[1])
    b = g.b
    if it.elem == T.F64:
        g.deopt_if(b.fcmp_unordered("uno", x, x), "a NaN looked for in an iterator", g.loc)
    elif it.elem not in (T.I64, T.BOOL):
        raise NotNative(f"`in` over an iterator of {it.elem}")
    head, test, done = (b.append_basic_block(s) for s in ("in.head", "in.test", "in.done"))
    out = g.slot(T.BOOL)
    b.store(I8(0), out)
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(it.advance(g), test, done)
    b.position_at_end(test)
    v = b.load(it.cur, typ=lltype(it.elem))
    same = b.fcmp_ordered("==", v, x) if it.elem == T.F64 else b.icmp_unsigned("==", v, x)
    b.store(to_i8(b, same), out)
    b.cbranch(same, done, head)
    b.position_at_end(done)
    return b.load(out, typ=I8)
