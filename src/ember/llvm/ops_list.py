"""List operators in the lowering table (ops_table.EMITTERS): CPython's list semantics.

Elements are stored in their memory layout (layout.py); storing a list-holding element
retains it, removing one releases it, so a list owns one count of each element.
"""

from __future__ import annotations

import sys

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.layout import I8, I32, I64, PTR, NotNative, elem_size, is_refcounted, lltype
from ember.llvm.ops_table import args, emitter, fail, load_elem, store_elem, to_i8

EMPTY = ("const", [])
"""A kernel operand rebuilt as an empty list: for errors whose message names no contents."""


def _elem(op, i: int = 0) -> T.Type:
    return op.operands[i].type.elem


def _len(g, lst):
    return RT.load_field(g.b, lst, RT.LEN)


def _set_len(g, lst, n):
    RT.store_field(g.b, lst, RT.LEN, n)


def _normalize(g, op, lst, i, kinds=None, values=None):
    """Python's index rule: i + len for a negative i; IndexError outside [0, len)."""
    b = g.b
    n = _len(g, lst)
    j = b.select(b.icmp_signed("<", i, I64(0)), b.add(i, n), i)
    bad = b.or_(b.icmp_signed("<", j, I64(0)), b.icmp_signed(">=", j, n))
    fail(g, op, bad, values, kinds=kinds, cls="IndexError")
    return j


def _loop(g, n, body, start=None):
    """for k in range(start or 0, n): body(k)."""
    RT.count_loop(g.b, g.slot(T.I64), n, body, start)


def _move(g, lst, dst, src, count, elem):
    b = g.b
    data = RT.load_field(b, lst, RT.DATA)
    size = I64(elem_size(elem))
    et = lltype(elem)
    b.call(g.rt.memmove, [b.gep(data, [dst], source_etype=et), b.gep(data, [src], source_etype=et),
                          b.mul(count, size), ir.Constant(ir.IntType(1), 0)])


def _copy_into(g, dst, at, src, start, count, elem):
    """dst[at + k] = src[start + k] for k < count, retaining list-holding elements."""
    def body(k):
        v = load_elem(g, src, g.b.add(start, k), elem)
        g.retain(v, elem)
        store_elem(g, dst, g.b.add(at, k), v, elem)
    if is_refcounted(elem):
        _loop(g, count, body)
        return
    b = g.b
    et = lltype(elem)
    d = b.gep(RT.load_field(b, dst, RT.DATA), [at], source_etype=et)
    s = b.gep(RT.load_field(b, src, RT.DATA), [start], source_etype=et)
    b.call(g.rt.memmove, [d, s, b.mul(count, I64(elem_size(elem))),
                          ir.Constant(ir.IntType(1), 0)])


@emitter("list.len")
def _list_len(g, op):
    return _len(g, args(g, op)[0])


@emitter("list.getitem")
def _list_getitem(g, op):
    lst, i = args(g, op)
    j = _normalize(g, op, lst, i)
    v = load_elem(g, lst, j, op.result.type)
    g.retain(v, op.result.type)
    return v


@emitter("list.setitem")
def _list_setitem(g, op):
    lst, i, v = args(g, op)
    elem = _elem(op)
    j = _normalize(g, op, lst, i, kinds=(("len", str(elem)), "i64", ("const", None)),
                   values=[lst, i, None])
    g.retain(v, elem)
    if is_refcounted(elem):
        g.rt.release(g.b, load_elem(g, lst, j, elem), elem)
    store_elem(g, lst, j, v, elem)


@emitter("list.append")
def _list_append(g, op):
    lst, v = args(g, op)
    elem = _elem(op)
    n = _len(g, lst)
    g.rt.reserve(g.b, lst, g.b.add(n, I64(1)), elem)
    g.retain(v, elem)
    store_elem(g, lst, n, v, elem)
    _set_len(g, lst, g.b.add(n, I64(1)))


@emitter("list.pop")
def _list_pop(g, op):
    lst, i = args(g, op)
    elem = _elem(op)
    j = _normalize(g, op, lst, i, kinds=(("len", str(elem)), "i64"), values=[lst, i])
    v = load_elem(g, lst, j, elem)
    n = _len(g, lst)
    _move(g, lst, j, g.b.add(j, I64(1)), g.b.sub(g.b.sub(n, j), I64(1)), elem)
    _set_len(g, lst, g.b.sub(n, I64(1)))
    return v


@emitter("list.delitem")
def _list_delitem(g, op):
    lst, i = args(g, op)
    elem = _elem(op)
    j = _normalize(g, op, lst, i)
    g.rt.release(g.b, load_elem(g, lst, j, elem), elem)
    n = _len(g, lst)
    _move(g, lst, j, g.b.add(j, I64(1)), g.b.sub(g.b.sub(n, j), I64(1)), elem)
    _set_len(g, lst, g.b.sub(n, I64(1)))


@emitter("list.insert")
def _list_insert(g, op):
    lst, i, v = args(g, op)
    elem = _elem(op)
    b = g.b
    n = _len(g, lst)
    j = b.select(b.icmp_signed("<", i, I64(0)), b.add(i, n), i)
    j = b.select(b.icmp_signed("<", j, I64(0)), I64(0), j)
    j = b.select(b.icmp_signed(">", j, n), n, j)
    g.rt.reserve(b, lst, b.add(n, I64(1)), elem)
    _move(g, lst, b.add(j, I64(1)), j, b.sub(n, j), elem)
    g.retain(v, elem)
    store_elem(g, lst, j, v, elem)
    _set_len(g, lst, b.add(n, I64(1)))


@emitter("list.extend")
def _list_extend(g, op):
    lst, other = args(g, op)
    elem = _elem(op)
    b = g.b
    n1, n2 = _len(g, lst), _len(g, other)
    g.rt.reserve(b, lst, b.add(n1, n2), elem)
    _copy_into(g, lst, n1, other, I64(0), n2, elem)
    _set_len(g, lst, b.add(n1, n2))


@emitter("list.add")
def _list_add(g, op):
    a, c = args(g, op)
    elem = _elem(op)
    b = g.b
    n1, n2 = _len(g, a), _len(g, c)
    out = g.rt.new_list(b, b.add(n1, n2), elem)
    _copy_into(g, out, I64(0), a, I64(0), n1, elem)
    _copy_into(g, out, n1, c, I64(0), n2, elem)
    return out


@emitter("list.copy", "builtins.list_copy")
def _list_copy(g, op):
    (a,) = args(g, op)
    elem = _elem(op)
    n = _len(g, a)
    out = g.rt.new_list(g.b, n, elem)
    _copy_into(g, out, I64(0), a, I64(0), n, elem)
    return out


@emitter("list.mul")
def _list_mul(g, op):
    a, k = args(g, op)
    elem = _elem(op)
    b = g.b
    n = _len(g, a)
    reps = b.select(b.icmp_signed("<", k, I64(0)), I64(0), k)
    total = b.smul_with_overflow(n, reps)
    huge = b.or_(b.extract_value(total, 1),
                 b.icmp_signed(">", b.extract_value(total, 0), I64(1 << 36)))
    fail(g, op, huge, cls="MemoryError")
    out = g.rt.new_list(b, b.extract_value(total, 0), elem)

    def body(r):
        _copy_into(g, out, b.mul(r, n), a, I64(0), n, elem)
    _loop(g, reps, body)
    return out


def _eq(g, a, b, elem):
    if elem in (T.I64, T.BOOL):
        return g.b.icmp_signed("==", a, b)
    if isinstance(elem, (T.ClassType, T.ListType, T.TupleType)) or elem == T.F64:
        from ember.llvm.ops_more import _equal
        return _equal(g, a, b, elem)
    raise NotNative(f"element comparison of {elem}")


def _find(g, lst, x, elem):
    """Index of the first element equal to x, or -1."""
    b = g.b
    res = g.slot(T.I64)
    b.store(I64(-1), res)
    k = g.slot(T.I64)
    b.store(I64(0), k)
    n = _len(g, lst)
    head, blk, nxt, done = (b.append_basic_block(s) for s in ("f.head", "f.body", "f.next",
                                                               "f.done"))
    b.branch(head)
    b.position_at_end(head)
    i = b.load(k, typ=I64)
    b.cbranch(b.icmp_signed("<", i, n), blk, done)
    b.position_at_end(blk)
    hit = _eq(g, load_elem(g, lst, i, elem), x, elem)
    found = b.append_basic_block("f.found")
    b.cbranch(hit, found, nxt)
    b.position_at_end(found)
    b.store(i, res)
    b.branch(done)
    b.position_at_end(nxt)
    b.store(b.add(i, I64(1)), k)
    b.branch(head)
    b.position_at_end(done)
    return b.load(res, typ=I64)


@emitter("list.contains")
def _list_contains(g, op):
    lst, x = args(g, op)
    return to_i8(g.b, g.b.icmp_signed(">=", _find(g, lst, x, _elem(op)), I64(0)))


@emitter("list.index")
def _list_index(g, op):
    lst, x = args(g, op)
    elem = _elem(op)
    i = _find(g, lst, x, elem)
    fail(g, op, g.b.icmp_signed("<", i, I64(0)), [None, x], kinds=(EMPTY, _kind(elem)))
    return i


@emitter("list.remove")
def _list_remove(g, op):
    lst, x = args(g, op)
    elem = _elem(op)
    b = g.b
    i = _find(g, lst, x, elem)
    fail(g, op, b.icmp_signed("<", i, I64(0)), [None, x], kinds=(EMPTY, _kind(elem)))
    n = _len(g, lst)
    _move(g, lst, i, b.add(i, I64(1)), b.sub(b.sub(n, i), I64(1)), elem)
    _set_len(g, lst, b.sub(n, I64(1)))


def _kind(elem):
    kinds = {T.I64: "i64", T.BOOL: "bool", T.F64: "f64"}
    if elem not in kinds:  # the message shows the value: only scalars are rebuilt
        raise NotNative(f"the error message of a missing {elem}")
    return kinds[elem]


@emitter("list.count")
def _list_count(g, op):
    lst, x = args(g, op)
    elem = _elem(op)
    cnt = g.slot(T.I64)
    g.b.store(I64(0), cnt)

    def body(k):
        hit = _eq(g, load_elem(g, lst, k, elem), x, elem)
        g.b.store(g.b.add(g.b.load(cnt, typ=I64), g.b.zext(hit, I64)), cnt)
    _loop(g, _len(g, lst), body)
    return g.b.load(cnt, typ=I64)


@emitter("list.reverse")
def _list_reverse(g, op):
    (lst,) = args(g, op)
    elem = _elem(op)
    b = g.b
    n = _len(g, lst)

    def body(k):
        j = b.sub(b.sub(n, k), I64(1))
        x, y = load_elem(g, lst, k, elem), load_elem(g, lst, j, elem)
        store_elem(g, lst, k, y, elem)
        store_elem(g, lst, j, x, elem)
    _loop(g, b.sdiv(n, I64(2)), body)


@emitter("list.clear")
def _list_clear(g, op):
    (lst,) = args(g, op)
    elem = _elem(op)
    if is_refcounted(elem):
        _loop(g, _len(g, lst), lambda k: g.rt.release(g.b, load_elem(g, lst, k, elem), elem))
    _set_len(g, lst, I64(0))


@emitter("list.check_unpack")
def _list_check_unpack(g, op):
    lst, n = args(g, op)
    fail(g, op, g.b.icmp_signed("!=", _len(g, lst), n))


# ----------------------------------------------------------------------------- slicing

def _opt_int(g, v):
    """(present i1, value i64) of an optional<int> / none / int operand."""
    x = g.native(v)
    if v.type == T.NONE:
        return ir.Constant(ir.IntType(1), 0), I64(0)
    if v.type == T.I64:
        return ir.Constant(ir.IntType(1), 1), x
    return g.b.icmp_unsigned("!=", g.b.extract_value(x, 0), I8(0)), g.b.extract_value(x, 1)


def _adjust(g, present, v, n, neg_step, default_pos, default_neg):
    """PySlice_AdjustIndices for one bound (default_* when the bound is None)."""
    b = g.b
    low = b.select(neg_step, I64(-1), I64(0))
    high = b.select(neg_step, b.sub(n, I64(1)), n)
    shifted = b.add(v, n)
    r_neg = b.select(b.icmp_signed("<", shifted, I64(0)), low, shifted)
    r_pos = b.select(b.icmp_signed(">=", v, n), high, v)
    r = b.select(b.icmp_signed("<", v, I64(0)), r_neg, r_pos)
    return b.select(present, r, b.select(neg_step, default_neg, default_pos))


def _slice_bounds(g, op, lst, extra=()):
    """(start, step, count) of lst[start:stop:step] as CPython computes them (`extra`:
    constant kinds of the op's operands after the slice's, for the step-0 error)."""
    b = g.b
    (ps, start), (pe, stop), (pp, step) = (_opt_int(g, v) for v in op.operands[1:4])
    step = b.select(pp, step, I64(1))
    fail(g, op, b.icmp_signed("==", step, I64(0)), [],
         kinds=(EMPTY, ("const", None), ("const", None), ("const", 0)) + tuple(extra),
         cls="ValueError")
    step = b.select(b.icmp_signed("<", step, I64(-(2 ** 63 - 1))), I64(-(2 ** 63 - 1)), step)
    n = _len(g, lst)
    neg = b.icmp_signed("<", step, I64(0))
    start = _adjust(g, ps, start, n, neg, I64(0), b.sub(n, I64(1)))
    stop = _adjust(g, pe, stop, n, neg, n, I64(-1))
    up = b.select(b.icmp_signed("<", start, stop),
                  b.add(b.sdiv(b.sub(b.sub(stop, start), I64(1)), step), I64(1)), I64(0))
    down = b.select(b.icmp_signed("<", stop, start),
                    b.add(b.sdiv(b.sub(b.sub(start, stop), I64(1)), b.neg(step)), I64(1)),
                    I64(0))
    return start, step, b.select(neg, down, up)


@emitter("list.slice")
def _list_slice(g, op):
    b = g.b
    lst = g.native(op.operands[0])
    elem = _elem(op)
    start, step, count = _slice_bounds(g, op, lst)
    out = g.rt.new_list(b, count, elem)

    def body(k):
        v = load_elem(g, lst, b.add(start, b.mul(k, step)), elem)
        g.retain(v, elem)
        store_elem(g, out, k, v, elem)
    _loop(g, count, body)
    return out


@emitter("list.delslice")
def _list_delslice(g, op):
    """del lst[start:stop:step]: keep the elements the slice does not select, in order."""
    b = g.b
    lst = g.native(op.operands[0])
    elem = _elem(op)
    start, step, count = _slice_bounds(g, op, lst)
    neg = b.icmp_signed("<", step, I64(0))  # walk the same elements upwards
    first = b.select(neg, b.add(start, b.mul(step, b.sub(count, I64(1)))), start)
    stride = b.select(neg, b.sub(I64(0), step), step)
    end = b.add(first, b.mul(stride, count))
    w = g.slot(T.I64)
    b.store(I64(0), w)

    def body(i):
        off = b.sub(i, first)
        hit = b.and_(b.and_(b.icmp_signed(">=", i, first), b.icmp_signed("<", i, end)),
                     b.icmp_signed("==", b.srem(off, b.select(b.icmp_signed(">", stride, I64(0)),
                                                             stride, I64(1))), I64(0)))
        v = load_elem(g, lst, i, elem)
        keep, drop, nxt = (b.append_basic_block(x) for x in ("del.keep", "del.drop",
                                                             "del.next"))
        b.cbranch(b.and_(hit, b.icmp_signed(">", count, I64(0))), drop, keep)
        b.position_at_end(drop)
        g.rt.release(b, v, elem)
        b.branch(nxt)
        b.position_at_end(keep)
        wi = b.load(w, typ=I64)
        store_elem(g, lst, wi, v, elem)
        b.store(b.add(wi, I64(1)), w)
        b.branch(nxt)
        b.position_at_end(nxt)
    _loop(g, _len(g, lst), body)
    _set_len(g, lst, b.load(w, typ=I64))


@emitter("list.check_unpack_star")
def _list_check_unpack_star(g, op):
    lst, n = args(g, op)
    fail(g, op, g.b.icmp_signed("<", _len(g, lst), n))


def _unaliased(g, lst, items, elem):
    """items, or a copy of it when it is lst itself (CPython copies `xs[a:b] = xs` first);
    (list, whether it is a copy to release)."""
    b = g.b
    same = b.icmp_unsigned("==", items, lst)
    slot = g.alloca_b.alloca(PTR)
    b.store(items, slot)
    with b.if_then(same, likely=False):
        n = _len(g, items)
        copy = g.rt.new_list(b, n, elem)
        _copy_into(g, copy, I64(0), items, I64(0), n, elem)
        b.store(copy, slot)
    return b.load(slot, typ=PTR), same


def _replace_run(g, lst, start, count, src, elem):
    """lst[start:start + count] = src (step 1): the list grows or shrinks by the difference."""
    b = g.b
    n, m = _len(g, lst), _len(g, src)
    if is_refcounted(elem):
        _loop(g, count, lambda k: g.rt.release(b, load_elem(g, lst, b.add(start, k), elem),
                                               elem))
    tail = b.sub(n, b.add(start, count))
    g.rt.reserve(b, lst, b.add(b.sub(n, count), m), elem)
    _move(g, lst, b.add(start, m), b.add(start, count), tail, elem)
    _copy_into(g, lst, start, src, I64(0), m, elem)
    _set_len(g, lst, b.add(b.sub(n, count), m))


def _check_extended(g, op, step, count, items, elem):
    """An extended slice (step != 1) takes exactly as many items as it selects."""
    b = g.b
    m = _len(g, items)
    kind = ("len", str(elem))
    site = g.site("kernel", op.loc, op=op.name, text="ValueError", args=(
        kind, ("const", None), ("const", None), ("const", -1), kind))
    bad = b.and_(b.icmp_signed("!=", step, I64(1)), b.icmp_signed("!=", m, count))
    g.fail_if(bad, site, [count, m])


def _replace_extended(g, lst, start, step, count, src, elem):
    """lst[start::step][:count] = src, item by item (sizes checked before)."""
    b = g.b

    def body(k):
        at = b.add(start, b.mul(k, step))
        old = load_elem(g, lst, at, elem)
        v = load_elem(g, src, k, elem)
        g.retain(v, elem)
        store_elem(g, lst, at, v, elem)
        if is_refcounted(elem):
            g.rt.release(b, old, elem)
    _loop(g, count, body)


@emitter("list.setslice")
def _list_setslice(g, op):
    """lst[start:stop:step] = items, as CPython's list_ass_subscript."""
    b = g.b
    lst, items = g.native(op.operands[0]), g.native(op.operands[4])
    elem = _elem(op)
    start, step, count = _slice_bounds(g, op, lst, extra=(EMPTY,))
    _check_extended(g, op, step, count, items, elem)
    src, copied = _unaliased(g, lst, items, elem)
    simple, extended, done = (b.append_basic_block(x) for x in
                              ("setslice.run", "setslice.ext", "setslice.done"))
    b.cbranch(b.icmp_signed("==", step, I64(1)), simple, extended)
    b.position_at_end(simple)
    _replace_run(g, lst, start, count, src, elem)
    b.branch(done)
    b.position_at_end(extended)
    _replace_extended(g, lst, start, step, count, src, elem)
    b.branch(done)
    b.position_at_end(done)
    with b.if_then(copied, likely=False):
        g.rt.release(b, src, op.operands[4].type)


@emitter("list.imul")
def _list_imul(g, op):
    """xs *= n: the contents repeated n times in place (cleared for n <= 0)."""
    lst, k = args(g, op)
    elem = _elem(op)
    b = g.b
    n = _len(g, lst)
    reps = b.select(b.icmp_signed("<", k, I64(0)), I64(0), k)
    total = b.smul_with_overflow(n, reps)
    huge = b.or_(b.extract_value(total, 1),
                 b.icmp_signed(">", b.extract_value(total, 0), I64(1 << 36)))
    fail(g, op, huge, cls="MemoryError")
    clear, grow, done = (b.append_basic_block(x) for x in ("imul.clear", "imul.grow",
                                                           "imul.done"))
    b.cbranch(b.icmp_signed("==", reps, I64(0)), clear, grow)
    b.position_at_end(clear)
    if is_refcounted(elem):
        _loop(g, n, lambda i: g.rt.release(b, load_elem(g, lst, i, elem), elem))
    _set_len(g, lst, I64(0))
    b.branch(done)
    b.position_at_end(grow)
    g.rt.reserve(b, lst, b.extract_value(total, 0), elem)
    _loop(g, reps, lambda r: _copy_into(g, lst, b.mul(r, n), lst, I64(0), n, elem),
          start=I64(1))
    _set_len(g, lst, b.extract_value(total, 0))
    b.branch(done)
    b.position_at_end(done)


# ----------------------------------------------------------------------------- builtins

@emitter("builtins.sum_int")
def _sum_int(g, op):
    (lst,) = args(g, op)
    b = g.b
    acc = g.slot(T.I64)
    b.store(I64(0), acc)

    def body(k):
        total, x = b.load(acc, typ=I64), load_elem(g, lst, k, T.I64)
        r = b.sadd_with_overflow(total, x)
        fail(g, op, b.extract_value(r, 1), [total, x], kernel="int.add", kinds=("i64", "i64"))
        b.store(b.extract_value(r, 0), acc)
    _loop(g, _len(g, lst), body)
    return b.load(acc, typ=I64)


@emitter("builtins.sum_float")
def _sum_float(g, op):
    if sys.version_info >= (3, 12):
        raise NotNative("sum() of floats (CPython 3.12 sums with compensation)")
    (lst,) = args(g, op)
    b = g.b
    acc = g.slot(T.F64)
    b.store(ir.Constant(ir.DoubleType(), 0.0), acc)
    _loop(g, _len(g, lst), lambda k: b.store(
        b.fadd(b.load(acc, typ=ir.DoubleType()), load_elem(g, lst, k, T.F64)), acc))
    return b.load(acc, typ=ir.DoubleType())


@emitter("builtins.min_list", "builtins.max_list")
def _minmax_list(g, op):
    (lst,) = args(g, op)
    elem = _elem(op)
    if elem not in (T.I64, T.F64):
        raise NotNative(f"{op.name} of {elem}")
    b = g.b
    n = _len(g, lst)
    fail(g, op, b.icmp_signed("==", n, I64(0)), [], kinds=(EMPTY,))
    acc = g.slot(elem)
    b.store(load_elem(g, lst, I64(0), elem), acc)
    pred = "<" if "min" in op.name else ">"

    def body(k):
        x, cur = load_elem(g, lst, k, elem), b.load(acc, typ=lltype(elem))
        c = b.icmp_signed(pred, x, cur) if elem == T.I64 else b.fcmp_ordered(pred, x, cur)
        b.store(b.select(c, x, cur), acc)
    _loop(g, n, body, start=I64(1))
    return b.load(acc, typ=lltype(elem))


@emitter("builtins.all", "builtins.any")
def _all_any(g, op):
    (lst,) = args(g, op)
    b = g.b
    want_all = op.name == "builtins.all"
    acc = g.slot(T.BOOL)
    b.store(I8(1 if want_all else 0), acc)

    def body(k):
        x = load_elem(g, lst, k, T.BOOL)
        cur = b.load(acc, typ=I8)
        b.store(b.and_(cur, x) if want_all else b.or_(cur, x), acc)
    _loop(g, _len(g, lst), body)
    return b.load(acc, typ=I8)


def _comparator(g, elem: T.Type, reverse: bool):
    name = f"ember.cmp.{elem}.{int(reverse)}"
    fn = g.mg.llmod.globals.get(name)
    if fn is not None:
        return fn
    fn = ir.Function(g.mg.llmod, ir.FunctionType(I32, [PTR, PTR]), name)
    fn.linkage = "internal"
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    x, y = (b.load(p, typ=lltype(elem)) for p in fn.args)
    if reverse:
        x, y = y, x
    lt = b.zext(b.icmp_signed("<", x, y), I32)
    gt = b.zext(b.icmp_signed(">", x, y), I32)
    b.ret(b.sub(gt, lt))
    return fn


def _sort(g, lst, elem, reverse_v):
    if elem not in (T.I64, T.BOOL):
        raise NotNative(f"sorting a list of {elem}")
    qsort = g.mg.llmod.globals.get("qsort") or ir.Function(
        g.mg.llmod, ir.FunctionType(ir.VoidType(), [PTR, I64, I64, PTR]), "qsort")
    b = g.b
    rev = b.icmp_unsigned("!=", reverse_v, I8(0))
    cmp = b.select(rev, _comparator(g, elem, True), _comparator(g, elem, False))
    b.call(qsort, [RT.load_field(b, lst, RT.DATA), _len(g, lst), I64(elem_size(elem)), cmp])


# ----------------------------------------------------------------------------- stable sorts

def _merge_sort(g, keys, key_t, n, reverse: bool):
    """A native list of the indices 0..n-1 ordered stably by keys (Python's order of ints,
    bools and tuples of them; descending for reverse, equal keys keeping their order).
    Bottom-up merge sort: the same result as CPython's timsort, which is stable too."""
    from ember.llvm.ops_more import _order

    b = g.b
    perm, tmp = g.rt.new_list(b, n, T.I64), g.rt.new_list(b, n, T.I64)
    _loop(g, n, lambda i: store_elem(g, perm, i, i, T.I64))
    width = g.slot(T.I64)
    bufs = [g.alloca_b.alloca(PTR), g.alloca_b.alloca(PTR)]
    b.store(perm, bufs[0])
    b.store(tmp, bufs[1])
    b.store(I64(1), width)
    whead, wbody, wdone = (b.append_basic_block(s) for s in ("ms.w", "ms.wb", "ms.wd"))
    b.branch(whead)
    b.position_at_end(whead)
    w = b.load(width, typ=I64)
    b.cbranch(b.icmp_signed("<", w, n), wbody, wdone)
    b.position_at_end(wbody)
    a, out = b.load(bufs[0], typ=PTR), b.load(bufs[1], typ=PTR)

    def run(start):
        mid = _min(b, b.add(start, w), n)
        end = _min(b, b.add(start, b.mul(w, I64(2))), n)
        i, j = g.slot(T.I64), g.slot(T.I64)
        b.store(start, i)
        b.store(mid, j)

        def put(k):
            iv, jv = b.load(i, typ=I64), b.load(j, typ=I64)
            left_ok = b.icmp_signed("<", iv, mid)
            right_ok = b.icmp_signed("<", jv, end)
            li = load_elem(g, a, _min(b, iv, b.sub(n, I64(1))), T.I64)
            rj = load_elem(g, a, _min(b, jv, b.sub(n, I64(1))), T.I64)
            kl, kr = load_elem(g, keys, li, key_t), load_elem(g, keys, rj, key_t)
            c = _order(g, kr, kl, key_t) if not reverse else _order(g, kl, kr, key_t)
            right_first = b.icmp_signed("<", c, I64(0))  # strictly before: stable
            take_right = b.or_(b.not_(left_ok), b.and_(right_ok, right_first))
            store_elem(g, out, k, b.select(take_right, rj, li), T.I64)
            b.store(b.select(take_right, iv, b.add(iv, I64(1))), i)
            b.store(b.select(take_right, b.add(jv, I64(1)), jv), j)
        _loop(g, end, put, start=start)
    step = b.mul(w, I64(2))
    runs = b.sdiv(b.add(n, b.sub(step, I64(1))), step)
    _loop(g, runs, lambda r: run(b.mul(r, step)))
    b.store(out, bufs[0])
    b.store(a, bufs[1])
    b.store(b.mul(w, I64(2)), width)
    b.branch(whead)
    b.position_at_end(wdone)
    result, other = b.load(bufs[0], typ=PTR), b.load(bufs[1], typ=PTR)
    g.rt.release(b, other, T.ListType(T.I64))
    return result


def _min(b, x, y):
    return b.select(b.icmp_signed("<", x, y), x, y)


def _sorted_by(g, op, lst, keys, key_t, elem, reverse_v):
    """A new list of lst's elements ordered by keys (a native list of key_t)."""
    from ember.llvm.ops_more import _order  # noqa: F401  (NotNative for unordered keys)

    b = g.b
    deopt_on_nan(g, keys, key_t)
    n = _len(g, lst)
    out = g.slot(T.ListType(elem))
    rev = b.icmp_unsigned("!=", reverse_v, I8(0))
    yes, no, done = (b.append_basic_block(s) for s in ("srt.rev", "srt.fwd", "srt.done"))
    b.cbranch(rev, yes, no)
    for bb, reverse in ((yes, True), (no, False)):
        b.position_at_end(bb)
        perm = _merge_sort(g, keys, key_t, n, reverse)
        res = g.rt.new_list(b, n, elem)

        def place(k, perm=perm, res=res):
            v = load_elem(g, lst, load_elem(g, perm, k, T.I64), elem)
            g.retain(v, elem)
            store_elem(g, res, k, v, elem)
        _loop(g, n, place)
        g.rt.release(b, perm, T.ListType(T.I64))
        b.store(res, out)
        b.branch(done)
    b.position_at_end(done)
    return b.load(out, typ=PTR)


@emitter("builtins.sorted_key")
def _sorted_key(g, op):
    """sorted(xs, key=f, reverse=r): every key computed first (f's errors propagate, as in
    CPython), then a stable sort of the elements by their keys."""
    from ember.llvm.codegen import Static

    lst = g.native(op.operands[0])
    f = g.get(op.operands[1])
    rev = g.native(op.operands[2])
    if not (isinstance(f, Static) and f.kind == "closure"):
        raise NotNative("a sort key that is not a closure made in this function")
    key_t = op.operands[1].type.ret
    elem = _elem(op)
    b = g.b
    n = _len(g, lst)
    keys = g.rt.new_list(b, n, key_t)
    _set_len(g, keys, I64(0))
    g.scopes[-1].append(("val", keys, T.ListType(key_t)))  # released with the block
    name, caps = f.value

    def compute(k):
        v = g._direct_call(name, list(caps) + [load_elem(g, lst, k, elem)], op.loc)
        store_elem(g, keys, k, v, key_t)
        _set_len(g, keys, b.add(k, I64(1)))
    _loop(g, n, compute)
    return _sorted_by(g, op, lst, keys, key_t, elem, rev)


def _sortable(t) -> bool:
    return t in (T.I64, T.BOOL, T.F64) or (isinstance(t, T.TupleType) and
                                           all(_sortable(e) for e in t.elems))


def _has_float(t) -> bool:
    return t == T.F64 or (isinstance(t, T.TupleType) and any(_has_float(e) for e in t.elems))


def deopt_on_nan(g, keys, key_t) -> None:
    """Sorting keys that hold floats: a NaN among them leaves for the VM (how a sort
    places NaNs depends on its exact comparisons: timsort's, which native code does not
    copy); without one, any stable sort gives timsort's order."""
    if not _has_float(key_t):
        return
    b = g.b
    seen = g.slot(T.BOOL)
    b.store(I8(0), seen)

    def nans(v, t):
        if t == T.F64:
            return b.fcmp_unordered("uno", v, v)
        acc = ir.Constant(ir.IntType(1), 0)
        for k, e in enumerate(t.elems):
            if _has_float(e):
                acc = b.or_(acc, nans(b.extract_value(v, k), e))
        return acc

    def check(k):
        v = load_elem(g, keys, k, key_t)
        b.store(b.or_(b.load(seen, typ=I8), b.zext(nans(v, key_t), I8)), seen)
    _loop(g, _len(g, keys), check)
    g.deopt_if(b.icmp_unsigned("!=", b.load(seen, typ=I8), I8(0)),
               "a NaN among the keys of a sort", g.loc)


@emitter("list.sort")
def _list_sort(g, op):
    lst, rev = args(g, op)
    elem = _elem(op)
    if elem in (T.I64, T.BOOL):
        _sort(g, lst, elem, rev)
        return
    if not _sortable(elem):
        raise NotNative(f"sorting a list of {elem}")
    srt = _sorted_by(g, op, lst, lst, elem, elem, rev)
    n = _len(g, lst)
    _copy_into(g, lst, I64(0), srt, I64(0), n, elem)  # retains: release the old ones
    g.rt.release(g.b, srt, op.operands[0].type)


@emitter("builtins.sorted")
def _sorted(g, op):
    lst, rev = args(g, op)
    elem = _elem(op)
    if elem in (T.I64, T.BOOL):
        n = _len(g, lst)
        out = g.rt.new_list(g.b, n, elem)
        _copy_into(g, out, I64(0), lst, I64(0), n, elem)
        _sort(g, out, elem, rev)
        return out
    if not _sortable(elem):
        raise NotNative(f"sorting a list of {elem}")
    return _sorted_by(g, op, lst, lst, elem, elem, rev)
