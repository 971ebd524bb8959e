"""Set operators in the lowering table (ops_table.EMITTERS): each one the CPython set
operation of the same name, step for step (set_runtime.py has the table and why), so a
native set holds its elements in CPython's order."""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.layout import I8, I64, PTR, NotNative, lltype
from ember.llvm.ops_table import args, emitter, fail, load_elem, store_elem, to_i8
from ember.llvm.set_runtime import FILL, MASK, TABLE, USED, SetRuntime, get, put


def _rt(g, t) -> SetRuntime:
    return SetRuntime(g.mg, t)


def _set_t(op, i: int = 0):
    return op.operands[i].type


def _no_nan(g, t, key) -> None:
    """A NaN key leaves for the VM: CPython's set tells NaNs apart by identity."""
    if t.elem == T.F64:
        g.deopt_if(g.b.fcmp_unordered("uno", key, key), "a NaN in a set", g.loc)


def _no_nan_in(g, t, lst) -> None:
    if t.elem == T.F64:
        from ember.llvm.ops_list import deopt_on_nan
        deopt_on_nan(g, lst, T.F64)


def _each_elem(g, lst, elem, body) -> None:
    RT.count_loop(g.b, g.slot(T.I64), RT.load_field(g.b, lst, RT.LEN),
                  lambda k: body(load_elem(g, lst, k, elem)))


def _each(g, r, s, body) -> None:
    r.each_active(g.b, g.slot(T.I64), s, body)


class _FnGen:
    """What the composite operations below need of a FunctionGen (a builder, entry-block
    slots, the runtime), for building one of them as a function of its own."""

    def __init__(self, mg, fn: ir.Function):
        self.mg, self.rt = mg, mg.rt
        self.alloca_b = ir.IRBuilder(fn.append_basic_block("entry"))
        self._body = fn.append_basic_block("body")
        self.b = ir.IRBuilder(self._body)

    def slot(self, t):
        return self.alloca_b.alloca(lltype(t))

    def retain(self, v, t) -> None:
        self.rt.retain(self.b, v, t)

    def finish(self, out) -> None:
        self.alloca_b.branch(self._body)
        if out is None:
            self.b.ret_void()
        else:
            self.b.ret(out)


def outlined(ret):
    """A composite set operation `f(g, r, *values)` built once per set type as an internal
    function (`ember.set.<f>.<type>`) and called: programs with many set operations stay
    small for LLVM. ret: "set", "i1" or None."""
    def deco(f):
        def call(g, r, *vals):
            name = f"ember.set.{f.__name__}.{r.name}"
            fn = g.mg.llmod.globals.get(name)
            if fn is None:
                lt = {"set": PTR, "i1": ir.IntType(1), None: ir.VoidType()}[ret]
                fn = ir.Function(g.mg.llmod, ir.FunctionType(lt, [v.type for v in vals]), name)
                fn.linkage = "internal"
                fg = _FnGen(g.mg, fn)
                fg.finish(f(fg, r, *fn.args))
            return g.b.call(fn, list(vals))
        call.__name__ = f.__name__
        call.__doc__ = f.__doc__
        return call
    return deco


# ----------------------------------------------------------------------------- building

@outlined("set")
def from_list(g, r, lst):
    s = r.new(g.b)
    _each_elem(g, lst, r.t.elem, lambda x: r.add(g.b, s, x, r.hash(g.b, x)))
    return s


@outlined("set")
def copy(g, r, s):
    out = r.new(g.b)
    r.merge(g.b, out, s)
    return out


@emitter("set.empty")
def _empty(g, op):
    return _rt(g, op.result.type).new(g.b)


@emitter("set.from_list")
def _from_list(g, op):
    lst = args(g, op)[0]
    t = op.result.type
    _no_nan_in(g, t, lst)
    return from_list(g, _rt(g, t), lst)


@emitter("set.from_constants")
def _from_constants(g, op):
    """BUILD_SET 0; SET_UPDATE of the frozenset CPython's compiler made of the constants
    (built, then rebuilt in its own order: ops/scalar_sets._from_constants)."""
    lst = args(g, op)[0]
    t = op.result.type
    _no_nan_in(g, t, lst)
    r = _rt(g, t)
    frozen = from_list(g, r, lst)
    merged = r.new(g.b)  # the compiler's rebuild of the constant, in its own order
    _each(g, r, frozen, lambda k, h: r.add(g.b, merged, k, h))
    out = copy(g, r, merged)
    for tmp in (frozen, merged):
        g.rt.release(g.b, tmp, t)
    return out


@emitter("set.copy")
def _copy(g, op):
    return copy(g, _rt(g, op.result.type), args(g, op)[0])


@emitter("set.to_list")
def _to_list(g, op):
    s = args(g, op)[0]
    t = _set_t(op)
    r = _rt(g, t)
    b = g.b
    out = g.rt.new_list(b, get(b, s, USED), t.elem)
    w = g.slot(T.I64)
    b.store(I64(0), w)

    def put_one(key, _h):
        k = b.load(w, typ=I64)
        store_elem(g, out, k, key, t.elem)
        b.store(b.add(k, I64(1)), w)
    _each(g, r, s, put_one)
    return out


@emitter("set.len")
def _len(g, op):
    _rt(g, _set_t(op))
    return get(g.b, args(g, op)[0], USED)


@emitter("set.iter_ok")
def _iter_ok(g, op):
    s, n, i = args(g, op)
    _rt(g, _set_t(op))
    b = g.b
    fail(g, op, b.icmp_signed("!=", get(b, s, USED), n), [s, n, i],
         kinds=(("const", []), "i64", "i64"), cls="RuntimeError")
    return to_i8(b, b.icmp_signed("<", i, n))


# ----------------------------------------------------------------------------- elements

def _key_op(g, op):
    s, x = args(g, op)
    t = _set_t(op)
    _no_nan(g, t, x)
    r = _rt(g, t)
    return r, s, x, r.hash(g.b, x)


@emitter("set.contains")
def _contains(g, op):
    r, s, x, h = _key_op(g, op)
    return to_i8(g.b, g.b.icmp_signed(">=", r.lookup(g.b, s, x, h), I64(0)))


@emitter("set.add")
def _add(g, op):
    r, s, x, h = _key_op(g, op)
    r.add(g.b, s, x, h)


@emitter("set.discard")
def _discard(g, op):
    r, s, x, h = _key_op(g, op)
    r.discard(g.b, s, x, h)


@emitter("set.remove")
def _remove(g, op):
    r, s, x, h = _key_op(g, op)
    gone = r.discard(g.b, s, x, h)
    kind = {T.I64: "i64", T.F64: "f64", T.BOOL: "bool"}[r.t.elem]
    # KeyError(x): what `{}[x]` raises too
    fail(g, op, g.b.not_(gone), [None, x], kernel="dict.getitem",
         kinds=(("const", {}), kind), cls="KeyError")


@emitter("set.pop")
def _pop(g, op):
    s = args(g, op)[0]
    r = _rt(g, _set_t(op))
    fail(g, op, g.b.icmp_signed("==", get(g.b, s, USED), I64(0)), [None, None],
         kernel="dict.getitem", kinds=(("const", {}), ("const", "pop from an empty set")),
         cls="KeyError")
    return r.pop(g.b, s)


@emitter("set.clear")
def _clear(g, op):
    s = args(g, op)[0]
    _rt(g, _set_t(op)).clear(g.b, s)


# ----------------------------------------------------------------------------- algebra

def _same(g, a, o):
    return g.b.icmp_unsigned("==", a, o)


def _branch_value(g, t, cond, then, other):
    """cond ? then() : other() for values of IR type t (each built in its own block)."""
    b = g.b
    out = g.slot(t)
    with b.if_else(cond) as (yes, no):
        with yes:
            b.store(then(), out)
        with no:
            b.store(other(), out)
    return b.load(out, typ=lltype(t))


@outlined("set")
def union(g, r, s, o):
    """set_union / set_or: a copy of s, then o merged in (unless o is s)."""
    out = copy(g, r, s)
    with g.b.if_then(g.b.not_(_same(g, s, o))):
        r.merge(g.b, out, o)
    return out


@outlined("set")
def intersection(g, r, s, o):
    """set_intersection: the smaller set's entries (o's on a tie) that the other holds."""
    b = g.b

    def fresh():
        out = r.new(b)
        swap = b.icmp_signed(">", get(b, o, USED), get(b, s, USED))
        small, big = b.select(swap, s, o), b.select(swap, o, s)

        def keep(k, h):
            with b.if_then(b.icmp_signed(">=", r.lookup(b, big, k, h), I64(0))):
                r.add(b, out, k, h)
        _each(g, r, small, keep)
        return out
    return _branch_value(g, r.t, _same(g, s, o), lambda: copy(g, r, s), fresh)


@outlined("set")
def intersection_list(g, r, s, lst):
    b = g.b
    out = r.new(b)

    def keep(x):
        h = r.hash(b, x)
        with b.if_then(b.icmp_signed(">=", r.lookup(b, s, x, h), I64(0))):
            r.add(b, out, x, h)
    _each_elem(g, lst, r.t.elem, keep)
    return out


def purge_dummies(g, r, s):
    """set_difference_update's last step: more than a quarter dummies -> a resize."""
    b = g.b
    many = b.icmp_unsigned(">", b.sub(get(b, s, FILL), get(b, s, USED)),
                           b.udiv(get(b, s, MASK), I64(4)))
    with b.if_then(many):
        r.resize(b, s, r.grow_target(b, get(b, s, USED)))


@outlined(None)
def difference_update(g, r, s, o):
    """set_difference_update_internal for a set o."""
    b = g.b
    with b.if_else(_same(g, s, o)) as (same, other):
        with same:
            r.clear(b, s)
        with other:
            huge = b.icmp_signed(">", b.ashr(get(b, o, USED), I64(3)), get(b, s, USED))
            src = _branch_value(g, r.t, huge, lambda: intersection(g, r, s, o),
                                lambda: _retained(g, r, o))
            _each(g, r, src, lambda k, h: r.discard(b, s, k, h))
            g.rt.release(b, src, r.t)
            purge_dummies(g, r, s)


def _retained(g, r, o):
    g.rt.retain(g.b, o, r.t)
    return o


@outlined(None)
def difference_update_list(g, r, s, lst):
    b = g.b
    _each_elem(g, lst, r.t.elem, lambda x: r.discard(b, s, x, r.hash(b, x)))
    purge_dummies(g, r, s)


@outlined("set")
def difference(g, r, s, o):
    """set_difference: a copy of s less o when s is over four times o's size, else the
    entries of s that o lacks, added to a new set."""
    b = g.b

    def by_copy():
        out = copy(g, r, s)
        difference_update(g, r, out, o)
        return out

    def by_scan():
        out = r.new(b)

        def keep(k, h):
            with b.if_then(b.icmp_signed("<", r.lookup(b, o, k, h), I64(0))):
                r.add(b, out, k, h)
        _each(g, r, s, keep)
        return out
    big = b.icmp_signed(">", b.ashr(get(b, s, USED), I64(2)), get(b, o, USED))
    return _branch_value(g, r.t, big, by_copy, by_scan)


@outlined(None)
def symmetric_update(g, r, s, o):
    """set_symmetric_difference_update for a set o: each of o's entries leaves s if there,
    else joins it."""
    b = g.b
    with b.if_else(_same(g, s, o)) as (same, other):
        with same:
            r.clear(b, s)
        with other:
            def flip(k, h):
                with b.if_then(b.not_(r.discard(b, s, k, h))):
                    r.add(b, s, k, h)
            _each(g, r, o, flip)


def intersection_update(g, r, s, tmp):
    """set_swap_bodies(s, tmp) (fill, used, mask and table; the finger stays), then tmp
    released."""
    b = g.b
    for f in (FILL, USED, MASK, TABLE):
        a, c = get(b, s, f), get(b, tmp, f)
        put(b, s, f, c)
        put(b, tmp, f, a)
    g.rt.release(b, tmp, r.t)


@outlined("i1")
def issubset(g, r, s, o):
    """i1: every entry of s is in o (false at once when s is larger)."""
    b = g.b
    ok = g.slot(T.BOOL)
    b.store(to_i8(b, b.icmp_signed("<=", get(b, s, USED), get(b, o, USED))), ok)
    with b.if_then(b.icmp_unsigned("!=", b.load(ok, typ=I8), I8(0))):
        def check(k, h):
            with b.if_then(b.icmp_signed("<", r.lookup(b, o, k, h), I64(0))):
                b.store(I8(0), ok)
        _each(g, r, s, check)
    return b.icmp_unsigned("!=", b.load(ok, typ=I8), I8(0))


@outlined("i1")
def any_in(g, r, s, lst):
    """i1: some element of lst is in s."""
    return _any_elem(g, r, s, lst, True)


@outlined("i1")
def any_not_in(g, r, s, lst):
    """i1: some element of lst is not in s."""
    return _any_elem(g, r, s, lst, False)


def _any_elem(g, r, s, lst, want_in: bool):
    b = g.b
    hit = g.slot(T.BOOL)
    b.store(I8(0), hit)

    def check(x):
        there = b.icmp_signed(">=", r.lookup(b, s, x, r.hash(b, x)), I64(0))
        with b.if_then(there if want_in else b.not_(there)):
            b.store(I8(1), hit)
    _each_elem(g, lst, r.t.elem, check)
    return b.icmp_unsigned("!=", b.load(hit, typ=I8), I8(0))


def _two(g, op):
    s, o = args(g, op)
    t = _set_t(op)
    if isinstance(op.operands[1].type, T.ListType):
        _no_nan_in(g, t, o)
    return _rt(g, t), s, o


@emitter("set.union", "set.or")
def _union(g, op):
    return union(g, *_two(g, op))


@emitter("set.union_list")
def _union_list(g, op):
    r, s, lst = _two(g, op)
    out = copy(g, r, s)
    _each_elem(g, lst, r.t.elem, lambda x: r.add(g.b, out, x, r.hash(g.b, x)))
    return out


@emitter("set.intersection", "set.and")
def _intersection(g, op):
    return intersection(g, *_two(g, op))


@emitter("set.intersection_list")
def _intersection_list(g, op):
    return intersection_list(g, *_two(g, op))


@emitter("set.difference", "set.sub")
def _difference(g, op):
    return difference(g, *_two(g, op))


@emitter("set.difference_list")
def _difference_list(g, op):
    r, s, lst = _two(g, op)
    out = copy(g, r, s)
    difference_update_list(g, r, out, lst)
    return out


@emitter("set.symmetric_difference", "set.xor")
def _symmetric_difference(g, op):
    r, s, o = _two(g, op)
    out = copy(g, r, o)  # make_new_set(type(s), o), then s applied to it
    symmetric_update(g, r, out, s)
    return out


@emitter("set.symmetric_difference_list")
def _symmetric_difference_list(g, op):
    r, s, lst = _two(g, op)
    out = from_list(g, r, lst)
    symmetric_update(g, r, out, s)
    return out


@emitter("set.update", "set.ior")
def _update(g, op):
    r, s, o = _two(g, op)
    r.merge(g.b, s, o)


@emitter("set.update_list")
def _update_list(g, op):
    r, s, lst = _two(g, op)
    _each_elem(g, lst, r.t.elem, lambda x: r.add(g.b, s, x, r.hash(g.b, x)))


@emitter("set.intersection_update", "set.iand")
def _intersection_update(g, op):
    r, s, o = _two(g, op)
    intersection_update(g, r, s, intersection(g, r, s, o))


@emitter("set.intersection_update_list")
def _intersection_update_list(g, op):
    r, s, lst = _two(g, op)
    intersection_update(g, r, s, intersection_list(g, r, s, lst))


@emitter("set.difference_update", "set.isub")
def _difference_update(g, op):
    difference_update(g, *_two(g, op))


@emitter("set.difference_update_list")
def _difference_update_list(g, op):
    difference_update_list(g, *_two(g, op))


@emitter("set.symmetric_difference_update", "set.ixor")
def _symmetric_update(g, op):
    symmetric_update(g, *_two(g, op))


@emitter("set.symmetric_difference_update_list")
def _symmetric_update_list(g, op):
    r, s, lst = _two(g, op)
    tmp = from_list(g, r, lst)
    symmetric_update(g, r, s, tmp)
    g.rt.release(g.b, tmp, r.t)


# ----------------------------------------------------------------------------- comparisons

def _bool(g, v):
    return to_i8(g.b, v)


@emitter("set.issubset", "set.le")
def _issubset(g, op):
    return _bool(g, issubset(g, *_two(g, op)))


@emitter("set.issubset_list")
def _issubset_list(g, op):
    r, s, lst = _two(g, op)
    tmp = from_list(g, r, lst)
    out = issubset(g, r, s, tmp)
    g.rt.release(g.b, tmp, r.t)
    return _bool(g, out)


@emitter("set.issuperset", "set.ge")
def _issuperset(g, op):
    r, s, o = _two(g, op)
    return _bool(g, issubset(g, r, o, s))


@emitter("set.issuperset_list")
def _issuperset_list(g, op):
    r, s, lst = _two(g, op)
    return _bool(g, g.b.not_(any_not_in(g, r, s, lst)))


@emitter("set.isdisjoint")
def _isdisjoint(g, op):
    r, s, o = _two(g, op)
    b = g.b
    hit = g.slot(T.BOOL)
    b.store(I8(0), hit)

    def check(k, h):
        with b.if_then(b.icmp_signed(">=", r.lookup(b, o, k, h), I64(0))):
            b.store(I8(1), hit)
    _each(g, r, s, check)
    return to_i8(b, b.icmp_unsigned("==", b.load(hit, typ=I8), I8(0)))


@emitter("set.isdisjoint_list")
def _isdisjoint_list(g, op):
    r, s, lst = _two(g, op)
    return _bool(g, g.b.not_(any_in(g, r, s, lst)))


def _sized_subset(g, r, a, c, size_test):
    b = g.b
    ok = g.slot(T.BOOL)
    b.store(I8(0), ok)
    with b.if_then(size_test):
        b.store(to_i8(b, issubset(g, r, a, c)), ok)
    return b.load(ok, typ=I8)


@emitter("set.eq", "set.ne")
def _eq(g, op):
    r, s, o = _two(g, op)
    b = g.b
    eq = _sized_subset(g, r, s, o, b.icmp_signed("==", get(b, s, USED), get(b, o, USED)))
    return eq if op.name == "set.eq" else b.xor(eq, I8(1))


@emitter("set.lt")
def _lt(g, op):
    r, s, o = _two(g, op)
    b = g.b
    return _sized_subset(g, r, s, o, b.icmp_signed("<", get(b, s, USED), get(b, o, USED)))


@emitter("set.gt")
def _gt(g, op):
    r, s, o = _two(g, op)
    b = g.b
    return _sized_subset(g, r, o, s, b.icmp_signed(">", get(b, s, USED), get(b, o, USED)))


# ----------------------------------------------------------------------------- hash()

_XXPRIME_1, _XXPRIME_2, _XXPRIME_5 = (11400714785074694791, 14029467366897019727,
                                      2870177450012600261)


def _u64(v: int):
    return I64(v - (1 << 64) if v >= 1 << 63 else v)


def hash_value(g, v, t):
    """CPython's hash() of a native value: ints modulo 2**61 - 1, floats by
    _Py_HashDouble (a NaN's hash is its identity: the VM's), bools as ints, tuples by
    CPython's xxHash-style combination of their items' hashes."""
    from ember.llvm.set_runtime import float_hash, int_hash
    b = g.b
    if t == T.BOOL:
        return b.zext(v, I64)
    if t == T.I64:
        return b.call(int_hash(g.mg), [v])
    if t == T.F64:
        g.deopt_if(b.fcmp_unordered("uno", v, v), "the hash of a NaN", g.loc)
        return b.call(float_hash(g.mg), [v])
    if isinstance(t, T.TupleType):
        acc = _u64(_XXPRIME_5)
        for i, e in enumerate(t.elems):
            lane = hash_value(g, b.extract_value(v, i), e)
            acc = b.add(acc, b.mul(lane, _u64(_XXPRIME_2)))
            acc = b.or_(b.shl(acc, I64(31)), b.lshr(acc, I64(33)))
            acc = b.mul(acc, _u64(_XXPRIME_1))
        acc = b.add(acc, _u64(len(t.elems) ^ (_XXPRIME_5 ^ 3527539)))
        return b.select(b.icmp_signed("==", acc, I64(-1)), I64(1546275796), acc)
    raise NotNative(f"the hash of a {t}")


@emitter("builtins.hash")
def _hash(g, op):
    (v,) = args(g, op)
    t = op.operands[0].type
    if isinstance(t, T.ListType):  # unhashable: the kernel's TypeError, always
        fail(g, op, ir.Constant(ir.IntType(1), 1), [v], cls="TypeError")
        return I64(0)
    return hash_value(g, v, t)
