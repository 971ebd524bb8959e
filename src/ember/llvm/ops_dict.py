"""Dicts with int or bool keys in the lowering table (ops_table.EMITTERS).

Layout (CPython's compact dict, simplified): a malloc'd header
`{i64 refcount, i64 len, i64 used, i64 cap, ptr entries, i64 mask, ptr index}`;
`entries` holds `cap` records `{K key, V value, i8 live}` in insertion order (iteration
order is Python's); `index` is an open-addressing table of `mask + 1` entry numbers
(-1 empty, -2 deleted) probed linearly from a multiplicative hash of the key. A dict owns
one count of each live list-holding value. Dicts never cross the call boundary.
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.layout import I8, I32, I64, PTR, NotNative, is_refcounted, lltype, type_key
from ember.llvm.ops_table import args, emitter, fail, to_i8

HDR = ir.LiteralStructType([I64, I64, I64, I64, PTR, I64, PTR])
RC, LEN, USED, CAP, ENTRIES, MASK, INDEX = range(7)


def _check(t: T.Type) -> T.DictType:
    if not isinstance(t, T.DictType) or t.key not in (T.I64, T.BOOL):
        raise NotNative(f"a {t} (dict keys other than int and bool)")
    lltype(t.value)
    return t


def entry_type(t: T.DictType) -> ir.LiteralStructType:
    return ir.LiteralStructType([lltype(t.key), lltype(t.value), I8])


def _hp(b, d, i):
    return b.gep(d, [I32(0), I32(i)], inbounds=True, source_etype=HDR)


def _get(b, d, i):
    return b.load(_hp(b, d, i), typ=PTR if i in (ENTRIES, INDEX) else I64)


def _set(b, d, i, v):
    b.store(v, _hp(b, d, i))


def _ep(b, d, t, e, field: int):
    return b.gep(_get(b, d, ENTRIES), [e, I32(field)], inbounds=True,
                 source_etype=entry_type(t))


def _ip(b, d, s):
    return b.gep(_get(b, d, INDEX), [s], inbounds=True, source_etype=I64)


class DictRuntime:
    """Per dict type helpers, made once per module."""

    def __init__(self, mg, t: T.DictType):
        self.mg, self.t, self.rt = mg, t, mg.rt
        self.key = type_key(t)

    def _fn(self, name, ret, argtys):
        full = f"ember.dict.{name}.{self.key}"
        fn = self.mg.llmod.globals.get(full)
        if fn is not None:
            return fn, None
        fn = ir.Function(self.mg.llmod, ir.FunctionType(ret, argtys), full)
        fn.linkage = "internal"
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    def new(self, b, cap: int = 8):
        fn, fb = self._fn("new", PTR, [])
        if fb is not None:
            d = fb.call(self.rt.malloc, [I64(7 * 8)])
            esize = _sizeof(fb, entry_type(self.t))
            _set(fb, d, RC, I64(1))
            _set(fb, d, LEN, I64(0))
            _set(fb, d, USED, I64(0))
            _set(fb, d, CAP, I64(cap))
            _set(fb, d, ENTRIES, fb.call(self.rt.malloc, [fb.mul(esize, I64(cap))]))
            _set(fb, d, MASK, I64(2 * cap - 1))
            idx = fb.call(self.rt.malloc, [I64(16 * cap)])
            self._fill(fb, idx, I64(2 * cap))
            _set(fb, d, INDEX, idx)
            fb.ret(d)
        return b.call(fn, [])

    def _fill(self, b, idx, n):
        RT.count_loop(b, b.alloca(I64), n,
                      lambda i: b.store(I64(-1), b.gep(idx, [i], source_etype=I64)))

    def lookup(self, b, d, key):
        """{i64 entry (-1 if absent), i64 slot where it is or would go}."""
        rt = ir.LiteralStructType([I64, I64])
        fn, fb = self._fn("lookup", rt, [PTR, lltype(self.t.key)])
        if fb is not None:
            self._emit_lookup(fn, fb, rt)
        return b.call(fn, [d, key])

    def _emit_lookup(self, fn, b, rt):
        d, key = fn.args
        k64 = b.zext(key, I64) if key.type != I64 else key
        h = b.mul(k64, I64(-7046029254386353131))
        h = b.xor(h, b.lshr(h, I64(32)))
        mask = _get(b, d, MASK)
        pos, free = b.alloca(I64), b.alloca(I64)
        b.store(b.and_(h, mask), pos)
        b.store(I64(-1), free)
        head, check, nxt, miss, hit = (b.append_basic_block(s) for s in
                                       ("l.head", "l.check", "l.next", "l.miss", "l.hit"))
        b.branch(head)
        b.position_at_end(head)
        p = b.load(pos, typ=I64)
        e = b.load(_ip(b, d, p), typ=I64)
        b.cbranch(b.icmp_signed("==", e, I64(-1)), miss, check)
        b.position_at_end(check)
        tomb = b.icmp_signed("==", e, I64(-2))
        fr = b.load(free, typ=I64)
        b.store(b.select(b.and_(tomb, b.icmp_signed("<", fr, I64(0))), p, fr), free)
        safe_e = b.select(tomb, I64(0), e)
        same = b.icmp_signed("==", b.load(_ep(b, d, self.t, safe_e, 0), typ=key.type), key)
        b.cbranch(b.and_(b.not_(tomb), same), hit, nxt)
        b.position_at_end(nxt)
        b.store(b.and_(b.add(p, I64(1)), mask), pos)
        b.branch(head)
        b.position_at_end(hit)
        r = b.insert_value(ir.Constant(rt, None), e, 0)
        b.ret(b.insert_value(r, p, 1))
        b.position_at_end(miss)
        fr = b.load(free, typ=I64)
        r = b.insert_value(ir.Constant(rt, None), I64(-1), 0)
        b.ret(b.insert_value(r, b.select(b.icmp_signed("<", fr, I64(0)), p, fr), 1))

    def insert(self, b, d, key, value):
        """Add a key known to be absent (value already retained for the dict)."""
        fn, fb = self._fn("insert", ir.VoidType(), [PTR, lltype(self.t.key),
                                                      lltype(self.t.value)])
        if fb is not None:
            fd, fk, fv = fn.args
            used, cap = _get(fb, fd, USED), _get(fb, fd, CAP)
            with fb.if_then(fb.icmp_signed(">=", used, cap)):
                fb.call(self.rebuild_fn(), [fd, fb.mul(fb.add(_get(fb, fd, LEN), I64(1)),
                                                       I64(2))])
            used = _get(fb, fd, USED)
            fb.store(fk, _ep(fb, fd, self.t, used, 0))
            fb.store(fv, _ep(fb, fd, self.t, used, 1))
            fb.store(I8(1), _ep(fb, fd, self.t, used, 2))
            slot = fb.extract_value(self.lookup(fb, fd, fk), 1)
            fb.store(used, _ip(fb, fd, slot))
            _set(fb, fd, USED, fb.add(used, I64(1)))
            _set(fb, fd, LEN, fb.add(_get(fb, fd, LEN), I64(1)))
            fb.ret_void()
        b.call(fn, [d, key, value])

    def rebuild_fn(self):
        """void rebuild(d, cap): live entries compacted into a new array of cap records,
        and a new index of 2 * cap slots."""
        fn, b = self._fn("rebuild", ir.VoidType(), [PTR, I64])
        if b is None:
            return fn
        d, want = fn.args
        want = b.select(b.icmp_signed("<", want, I64(8)), I64(8), want)
        ctlz = self.mg.intrinsic_ctlz()  # the index has a power-of-two size >= 2 * cap
        slots = b.shl(I64(1), b.sub(I64(64), b.call(ctlz, [b.sub(b.mul(want, I64(2)), I64(1)),
                                                          ir.Constant(ir.IntType(1), 0)])))
        cap = b.lshr(slots, I64(1))
        et = entry_type(self.t)
        old, used = _get(b, d, ENTRIES), _get(b, d, USED)
        new = b.call(self.rt.malloc, [b.mul(_sizeof(b, et), cap)])
        idx = b.call(self.rt.malloc, [b.mul(I64(8), slots)])
        self._fill(b, idx, slots)
        b.call(self.rt.free, [_get(b, d, INDEX)])
        _set(b, d, ENTRIES, new)
        _set(b, d, INDEX, idx)
        _set(b, d, CAP, cap)
        _set(b, d, MASK, b.sub(slots, I64(1)))
        _set(b, d, USED, I64(0))
        w, k = b.alloca(I64), b.alloca(I64)
        b.store(I64(0), w)
        b.store(I64(0), k)
        head, body, keep, nxt, done = (b.append_basic_block(s) for s in
                                       ("r.h", "r.b", "r.k", "r.n", "r.d"))
        b.branch(head)
        b.position_at_end(head)
        i = b.load(k, typ=I64)
        b.cbranch(b.icmp_signed("<", i, used), body, done)
        b.position_at_end(body)
        rec = b.load(b.gep(old, [i], source_etype=et), typ=et)
        b.cbranch(b.icmp_unsigned("!=", b.extract_value(rec, 2), I8(0)), keep, nxt)
        b.position_at_end(keep)
        wi = b.load(w, typ=I64)
        b.store(rec, b.gep(new, [wi], source_etype=et))
        _set(b, d, USED, b.add(wi, I64(1)))
        slot = b.extract_value(self.lookup(b, d, b.extract_value(rec, 0)), 1)
        b.store(wi, _ip(b, d, slot))
        b.store(b.add(wi, I64(1)), w)
        b.branch(nxt)
        b.position_at_end(nxt)
        b.store(b.add(i, I64(1)), k)
        b.branch(head)
        b.position_at_end(done)
        b.call(self.rt.free, [old])
        b.ret_void()
        return fn


def _sizeof(b, t):
    return b.ptrtoint(b.gep(ir.Constant(PTR, None), [I32(1)], source_etype=t), I64)


def _rt(g, t) -> DictRuntime:
    return DictRuntime(g.mg, _check(t))


def release_dict(rt, b, d, t: T.DictType) -> None:
    """The body of a dict's release (rt.py calls it when the count reaches 0)."""
    et = entry_type(t)
    if is_refcounted(t.value):
        def body(i):
            rec = b.load(b.gep(_get(b, d, ENTRIES), [i], source_etype=et), typ=et)
            with b.if_then(b.icmp_unsigned("!=", b.extract_value(rec, 2), I8(0))):
                rt.release(b, b.extract_value(rec, 1), t.value)
        RT.count_loop(b, b.alloca(I64), _get(b, d, USED), body)
    b.call(rt.free, [_get(b, d, ENTRIES)])
    b.call(rt.free, [_get(b, d, INDEX)])
    b.call(rt.free, [d])


# ----------------------------------------------------------------------------- operators

def _found(g, op, d, key):
    """The entry number of key, failing with the kernel's KeyError when it is absent."""
    e = g.b.extract_value(_rt(g, op.operands[0].type).lookup(g.b, d, key), 0)
    fail(g, op, g.b.icmp_signed("<", e, I64(0)), [None, key],
         kinds=(("const", {}), "i64" if op.operands[1].type == T.I64 else "bool"),
         cls="KeyError")
    return e


def _value(g, d, t, e):
    v = g.b.load(_ep(g.b, d, t, e, 1), typ=lltype(t.value))
    g.retain(v, t.value)
    return v


def _put(g, t, d, key, value):
    """d[key] = value (value not yet retained)."""
    b = g.b
    r = _rt(g, t)
    g.retain(value, t.value)
    e = b.extract_value(r.lookup(b, d, key), 0)
    there, absent, done = (b.append_basic_block(s) for s in ("put.there", "put.new",
                                                             "put.done"))
    b.cbranch(b.icmp_signed(">=", e, I64(0)), there, absent)
    b.position_at_end(there)
    p = _ep(b, d, t, e, 1)
    g.rt.release(b, b.load(p, typ=lltype(t.value)), t.value)
    b.store(value, p)
    b.branch(done)
    b.position_at_end(absent)
    r.insert(b, d, key, value)
    b.branch(done)
    b.position_at_end(done)


def dict_new(g, op) -> None:
    t = _check(op.result.type)
    d = DictRuntime(g.mg, t).new(g.b)
    vals = [g.native(v) for v in op.operands]
    for k in range(0, len(vals), 2):
        _put(g, t, d, vals[k], vals[k + 1])
    g.define(op.result, d)


@emitter("dict.len")
def _dict_len(g, op):
    _check(op.operands[0].type)
    return _get(g.b, args(g, op)[0], LEN)


@emitter("dict.setitem")
def _dict_setitem(g, op):
    d, k, v = args(g, op)
    _put(g, _check(op.operands[0].type), d, k, v)


@emitter("dict.getitem")
def _dict_getitem(g, op):
    d, k = args(g, op)
    t = _check(op.operands[0].type)
    return _value(g, d, t, _found(g, op, d, k))


@emitter("dict.contains")
def _dict_contains(g, op):
    d, k = args(g, op)
    r = _rt(g, op.operands[0].type)
    e = g.b.extract_value(r.lookup(g.b, d, k), 0)
    return to_i8(g.b, g.b.icmp_signed(">=", e, I64(0)))


@emitter("dict.get", "dict.setdefault", "dict.pop_default")
def _dict_get(g, op):
    d, k, dflt = args(g, op)
    t = _check(op.operands[0].type)
    b = g.b
    r = _rt(g, t)
    e = b.extract_value(r.lookup(b, d, k), 0)
    out = g.slot(t.value)
    there, absent, done = (b.append_basic_block(s) for s in ("get.there", "get.dflt",
                                                             "get.done"))
    b.cbranch(b.icmp_signed(">=", e, I64(0)), there, absent)
    b.position_at_end(there)
    if op.name == "dict.pop_default":  # the dict's count moves to the result
        b.store(b.load(_ep(b, d, t, e, 1), typ=lltype(t.value)), out)
        _remove(g, t, d, e)
    else:
        b.store(_value(g, d, t, e), out)
    b.branch(done)
    b.position_at_end(absent)
    g.retain(dflt, t.value)
    b.store(dflt, out)
    if op.name == "dict.setdefault":
        g.retain(dflt, t.value)
        r.insert(b, d, k, dflt)
    b.branch(done)
    b.position_at_end(done)
    return b.load(out, typ=lltype(t.value))


@emitter("dict.get_opt")
def _dict_get_opt(g, op):
    d, k = args(g, op)
    t = _check(op.operands[0].type)
    b = g.b
    e = b.extract_value(_rt(g, t).lookup(b, d, k), 0)
    rt = lltype(op.result.type)
    out = g.slot(op.result.type)
    b.store(ir.Constant(rt, None), out)
    with b.if_then(b.icmp_signed(">=", e, I64(0))):
        v = _value(g, d, t, e)
        b.store(b.insert_value(b.insert_value(ir.Constant(rt, None), I8(1), 0), v, 1), out)
    return b.load(out, typ=rt)


def _remove(g, t, d, e):
    """Delete entry e (its value's count goes with it: the caller took or released it)."""
    b = g.b
    b.store(I8(0), _ep(b, d, t, e, 2))
    slot = b.extract_value(_rt(g, t).lookup(b, d, b.load(_ep(b, d, t, e, 0),
                                                         typ=lltype(t.key))), 1)
    b.store(I64(-2), _ip(b, d, slot))
    _set(b, d, LEN, b.sub(_get(b, d, LEN), I64(1)))


@emitter("dict.delitem")
def _dict_delitem(g, op):
    d, k = args(g, op)
    t = _check(op.operands[0].type)
    e = _found(g, op, d, k)
    g.rt.release(g.b, g.b.load(_ep(g.b, d, t, e, 1), typ=lltype(t.value)), t.value)
    _slot_after_lookup_fix(g, t, d, e)


def _slot_after_lookup_fix(g, t, d, e):
    # the key is still in the index: mark its slot deleted, the entry dead
    _remove(g, t, d, e)


@emitter("dict.pop")
def _dict_pop(g, op):
    d, k = args(g, op)
    t = _check(op.operands[0].type)
    e = _found(g, op, d, k)
    v = g.b.load(_ep(g.b, d, t, e, 1), typ=lltype(t.value))  # the dict's count moves out
    _remove(g, t, d, e)
    return v


def _collect(g, op, what: str):
    """keys / values / items as a new list, in insertion order."""
    from ember.llvm.ops_table import store_elem

    d = args(g, op)[0]
    t = _check(op.operands[0].type)
    b = g.b
    elem = op.result.type.elem
    out = g.rt.new_list(b, _get(b, d, LEN), elem)
    w, k = g.slot(T.I64), g.slot(T.I64)
    b.store(I64(0), w)
    b.store(I64(0), k)
    used = _get(b, d, USED)
    head, body, live, nxt, done = (b.append_basic_block(s) for s in
                                   ("c.h", "c.b", "c.l", "c.n", "c.d"))
    b.branch(head)
    b.position_at_end(head)
    i = b.load(k, typ=I64)
    b.cbranch(b.icmp_signed("<", i, used), body, done)
    b.position_at_end(body)
    b.cbranch(b.icmp_unsigned("!=", b.load(_ep(b, d, t, i, 2), typ=I8), I8(0)), live, nxt)
    b.position_at_end(live)
    key = b.load(_ep(b, d, t, i, 0), typ=lltype(t.key))
    if what == "keys":
        v = key
    else:
        v = b.load(_ep(b, d, t, i, 1), typ=lltype(t.value))
        if what == "items":
            v = b.insert_value(b.insert_value(ir.Constant(lltype(elem), None), key, 0), v, 1)
    g.retain(v, elem)
    wi = b.load(w, typ=I64)
    store_elem(g, out, wi, v, elem)
    b.store(b.add(wi, I64(1)), w)
    b.branch(nxt)
    b.position_at_end(nxt)
    b.store(b.add(i, I64(1)), k)
    b.branch(head)
    b.position_at_end(done)
    return out


@emitter("dict.keys")
def _dict_keys(g, op):
    return _collect(g, op, "keys")


@emitter("dict.values")
def _dict_values(g, op):
    return _collect(g, op, "values")


@emitter("dict.items")
def _dict_items(g, op):
    return _collect(g, op, "items")


@emitter("dict.iter_ok")
def _dict_iter_ok(g, op):
    d, n, i = args(g, op)
    _check(op.operands[0].type)
    b = g.b
    # the kernel sees a list of the dict's length (it only asks len())
    fail(g, op, b.icmp_signed("!=", _get(b, d, LEN), n), [d, n, i],
         kinds=(("len", "i64"), "i64", "i64"), cls="RuntimeError")
    return to_i8(b, b.icmp_signed("<", i, n))


@emitter("dict.clear")
def _dict_clear(g, op):
    d = args(g, op)[0]
    t = _check(op.operands[0].type)
    b = g.b

    def body(i):
        with b.if_then(b.icmp_unsigned("!=", b.load(_ep(b, d, t, i, 2), typ=I8), I8(0))):
            g.rt.release(b, b.load(_ep(b, d, t, i, 1), typ=lltype(t.value)), t.value)
            b.store(I8(0), _ep(b, d, t, i, 2))
    RT.count_loop(b, g.slot(T.I64), _get(b, d, USED), body)
    b.call(_rt(g, t).rebuild_fn(), [d, I64(8)])  # no live entries: an empty table
    _set(b, d, LEN, I64(0))
