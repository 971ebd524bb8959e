"""Sets of int, float or bool natively: CPython's own hash table, operation by operation.

A script's set is CPython's set on the VM, and iterating one gives the order of CPython's
table for the same history of operations (ops/scalar_sets.py). Native code reproduces
that order by running CPython's algorithms (Objects/setobject.c, as CPython 3.11 runs them) on
the same hashes: `hash(int)` modulo 2**61 - 1, `_Py_HashDouble` for floats; open
addressing with 9 linear probes, then perturbed jumps (`i = 5i + 1 + perturb`,
`perturb >>= 5`); a dummy for each deleted entry; a resize to the smallest power of two
above `4 * used` (2 * used past 50,000) once fill reaches 3/5 of the table; the one-big-
resize and copy rules of `set_merge`; `pop`'s finger. tests/unit/llvm/test_sets.py checks
the layouts against CPython's on random histories of every operation.

Layout: a malloc'd header `{i64 refcount, i64 fill, i64 used, i64 mask, i64 finger,
ptr table}`; the table holds `mask + 1` entries `{i64 hash, K key, i8 state}` (state 0
empty, 1 active, 2 dummy). Keys are scalars: a set owns no references but its table.
A NaN never enters a native set (the emitters deopt first: CPython's set consults a NaN's
identity). Sets do not cross the call boundary.
"""

from __future__ import annotations

import sys

from llvmlite import ir

from ember.ir import types as T
from ember.llvm.layout import F64, I1, I8, I32, I64, PTR, NotNative, lltype, type_key

HDR = ir.LiteralStructType([I64, I64, I64, I64, I64, PTR])
RC, FILL, USED, MASK, FINGER, TABLE = range(6)
EMPTY, ACTIVE, DUMMY = 0, 1, 2
MODULUS = (1 << 61) - 1
LINEAR_PROBES = 9
MINSIZE = 8

VERIFIED = ((3, 11),)
"""CPython versions whose set layouts these functions were checked against (elsewhere a
function that makes a set stays on the VM, which uses CPython's own)."""


def check(t: T.Type) -> T.SetType:
    if not isinstance(t, T.SetType) or t.elem not in (T.I64, T.F64, T.BOOL):
        raise NotNative(f"a {t} (set elements other than int, float and bool)")
    if sys.version_info[:2] not in VERIFIED:
        raise NotNative(f"a {t} (CPython {sys.version_info[0]}.{sys.version_info[1]}'s set "
                        "layout is not reproduced natively)")
    return t


def entry_type(t: T.SetType) -> ir.LiteralStructType:
    return ir.LiteralStructType([I64, lltype(t.elem), I8])


def field(b, s, i):
    return b.gep(s, [I32(0), I32(i)], inbounds=True, source_etype=HDR)


def get(b, s, i):
    return b.load(field(b, s, i), typ=PTR if i == TABLE else I64)


def put(b, s, i, v):
    b.store(v, field(b, s, i))


class _Body:
    """A runtime function under construction: its builder and entry-block variables."""

    def __init__(self, fn: ir.Function):
        self.fn = fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))

    def var(self, init, ty=I64):
        slot = self.b.alloca(ty)
        self.b.store(init, slot)
        return slot

    def load(self, slot, ty=I64):
        return self.b.load(slot, typ=ty)

    def block(self, name):
        return self.fn.append_basic_block(name)


class SetRuntime:
    """The helpers of one set type in one LLVM module, made on first use."""

    def __init__(self, mg, t: T.SetType):
        self.mg, self.t = mg, check(t)
        self.key_t = lltype(t.elem)
        self.et = entry_type(t)
        self.name = type_key(t)

    # -- plumbing ----------------------------------------------------------------------------
    def _fn(self, name, ret, argtys):
        return _module_fn(self.mg, f"ember.set.{name}.{self.name}", ret, argtys)

    def entry(self, b, table, i, k: int):
        return b.gep(table, [i, I32(k)], inbounds=True, source_etype=self.et)

    def state(self, b, table, i):
        return b.load(self.entry(b, table, i, 2), typ=I8)

    def store_entry(self, b, table, i, h, key):
        b.store(h, self.entry(b, table, i, 0))
        b.store(key, self.entry(b, table, i, 1))
        b.store(I8(ACTIVE), self.entry(b, table, i, 2))

    def esize(self, b):
        return b.ptrtoint(b.gep(ir.Constant(PTR, None), [I32(1)], source_etype=self.et), I64)

    def each_active(self, b, slot, s, body) -> None:
        """for each active entry of s, in table order: body(key, hash). `slot` is an i64
        alloca for the index; s must not change size inside body."""
        table, n = get(b, s, TABLE), b.add(get(b, s, MASK), I64(1))
        b.store(I64(0), slot)
        head, test, act, nxt, done = (b.append_basic_block(x) for x in
                                      ("each.h", "each.t", "each.a", "each.n", "each.d"))
        b.branch(head)
        b.position_at_end(head)
        i = b.load(slot, typ=I64)
        b.cbranch(b.icmp_signed("<", i, n), test, done)
        b.position_at_end(test)
        b.cbranch(b.icmp_unsigned("==", self.state(b, table, i), I8(ACTIVE)), act, nxt)
        b.position_at_end(act)
        body(b.load(self.entry(b, table, i, 1), typ=self.key_t),
             b.load(self.entry(b, table, i, 0), typ=I64))
        b.branch(nxt)
        b.position_at_end(nxt)
        b.store(b.add(b.load(slot, typ=I64), I64(1)), slot)
        b.branch(head)
        b.position_at_end(done)

    # -- hashing and equality ----------------------------------------------------------------
    def hash(self, b, key):
        if self.t.elem == T.BOOL:
            return b.zext(key, I64)
        if self.t.elem == T.I64:
            return b.call(int_hash(self.mg), [key])
        return b.call(float_hash(self.mg), [key])

    def same(self, b, a, key):
        if self.t.elem == T.F64:
            return b.fcmp_ordered("==", a, key)
        return b.icmp_unsigned("==", a, key)

    # -- tables ------------------------------------------------------------------------------
    def new_table(self, b, n):
        size = b.mul(n, self.esize(b))
        table = b.call(self.mg.rt.malloc, [size])
        memset = self.mg.llmod.declare_intrinsic("llvm.memset", [PTR, I64])
        b.call(memset, [table, ir.Constant(I8, 0), size, ir.Constant(I1, 0)])
        return table

    def new(self, b):
        fn, f = self._fn("new", PTR, [])
        if f is not None:
            s = f.b.call(self.mg.rt.malloc, [I64(6 * 8)])
            for i, v in ((RC, 1), (FILL, 0), (USED, 0), (MASK, MINSIZE - 1), (FINGER, 0)):
                put(f.b, s, i, I64(v))
            put(f.b, s, TABLE, self.new_table(f.b, I64(MINSIZE)))
            f.b.ret(s)
        return b.call(fn, [])

    def release_body(self, rt, b, s) -> None:
        """Free s (its count reached 0)."""
        b.call(rt.free, [get(b, s, TABLE)])
        b.call(rt.free, [s])

    def _probe(self, f: _Body, table, mask, h, on_entry):
        """CPython's probe sequence from hash h: on_entry(j, next_bb) is emitted for each
        slot j visited and must branch somewhere (to next_bb to go on)."""
        b = f.b
        i = f.var(b.and_(h, mask))
        perturb = f.var(h)
        j, left = f.var(I64(0)), f.var(I64(0))
        outer, inner, step, jump = (f.block(x) for x in ("p.outer", "p.inner", "p.step",
                                                         "p.jump"))
        b.branch(outer)
        b.position_at_end(outer)
        iv = f.load(i)
        b.store(iv, j)
        fits = b.icmp_unsigned("<=", b.add(iv, I64(LINEAR_PROBES)), mask)
        b.store(b.select(fits, I64(LINEAR_PROBES), I64(0)), left)
        b.branch(inner)
        b.position_at_end(inner)
        on_entry(f.load(j), step)
        b.position_at_end(step)
        n = f.load(left)
        b.store(b.sub(n, I64(1)), left)
        b.store(b.add(f.load(j), I64(1)), j)
        b.cbranch(b.icmp_signed("==", n, I64(0)), jump, inner)
        b.position_at_end(jump)
        p = b.lshr(f.load(perturb), I64(5))
        b.store(p, perturb)
        b.store(b.and_(b.add(b.add(b.mul(f.load(i), I64(5)), I64(1)), p), mask), i)
        b.branch(outer)

    def lookup(self, b, s, key, h):
        """The index of key's active entry in s, or -1 (set_lookkey)."""
        fn, f = self._fn("lookup", I64, [PTR, self.key_t, I64])
        if f is not None:
            fs, fk, fh = fn.args
            table, mask = get(f.b, fs, TABLE), get(f.b, fs, MASK)

            def visit(j, nxt):
                fb = f.b
                st = self.state(fb, table, j)
                miss, check, cmp, hit = (f.block(x) for x in ("l.miss", "l.chk", "l.cmp",
                                                              "l.hit"))
                fb.cbranch(fb.icmp_unsigned("==", st, I8(EMPTY)), miss, check)
                fb.position_at_end(miss)
                fb.ret(I64(-1))
                fb.position_at_end(check)
                live = fb.icmp_unsigned("==", st, I8(ACTIVE))
                same_h = fb.icmp_signed("==", fb.load(self.entry(fb, table, j, 0), typ=I64), fh)
                fb.cbranch(fb.and_(live, same_h), cmp, nxt)
                fb.position_at_end(cmp)
                k = fb.load(self.entry(fb, table, j, 1), typ=self.key_t)
                fb.cbranch(self.same(fb, k, fk), hit, nxt)
                fb.position_at_end(hit)
                fb.ret(j)
            self._probe(f, table, mask, fh, visit)
        return b.call(fn, [s, key, h])

    def insert_clean_fn(self):
        """void insert_clean(table, mask, key, hash): into the first empty slot."""
        fn, f = self._fn("insert_clean", ir.VoidType(), [PTR, I64, self.key_t, I64])
        if f is not None:
            table, mask, key, h = fn.args

            def visit(j, nxt):
                fb = f.b
                found = f.block("c.found")
                fb.cbranch(fb.icmp_unsigned("==", self.state(fb, table, j), I8(EMPTY)),
                           found, nxt)
                fb.position_at_end(found)
                self.store_entry(fb, table, j, h, key)
                fb.ret_void()
            self._probe(f, table, mask, h, visit)
        return fn

    def resize_fn(self):
        """void resize(s, minused): set_table_resize."""
        fn, f = self._fn("resize", ir.VoidType(), [PTR, I64])
        if f is not None:
            s, minused = fn.args
            b = f.b
            size = f.var(I64(MINSIZE))
            i = f.var(I64(0))
            grow, grown, keep, redo = (f.block(x) for x in ("r.grow", "r.grown", "r.keep",
                                                            "r.redo"))
            b.branch(grown)
            b.position_at_end(grow)
            b.store(b.shl(f.load(size), I64(1)), size)
            b.branch(grown)
            b.position_at_end(grown)
            n = f.load(size)
            b.cbranch(b.icmp_signed("<=", n, minused), grow, keep)
            b.position_at_end(keep)
            oldmask, fill, used = get(b, s, MASK), get(b, s, FILL), get(b, s, USED)
            same = b.and_(b.icmp_signed("==", n, I64(MINSIZE)),
                          b.and_(b.icmp_signed("==", oldmask, I64(MINSIZE - 1)),
                                 b.icmp_signed("==", fill, used)))
            done = f.block("r.done")
            b.cbranch(same, done, redo)
            b.position_at_end(done)
            b.ret_void()
            b.position_at_end(redo)
            old = get(b, s, TABLE)
            new = self.new_table(b, n)
            put(b, s, TABLE, new)
            put(b, s, MASK, b.sub(n, I64(1)))
            put(b, s, FILL, used)
            clean = self.insert_clean_fn()
            head, test, act, nxt, end = (f.block(x) for x in ("r.h", "r.t", "r.a", "r.n",
                                                              "r.e"))
            b.branch(head)
            b.position_at_end(head)
            k = f.load(i)
            b.cbranch(b.icmp_signed("<=", k, oldmask), test, end)
            b.position_at_end(test)
            b.cbranch(b.icmp_unsigned("==", self.state(b, old, k), I8(ACTIVE)), act, nxt)
            b.position_at_end(act)
            b.call(clean, [new, b.sub(n, I64(1)),
                           b.load(self.entry(b, old, k, 1), typ=self.key_t),
                           b.load(self.entry(b, old, k, 0), typ=I64)])
            b.branch(nxt)
            b.position_at_end(nxt)
            b.store(b.add(k, I64(1)), i)
            b.branch(head)
            b.position_at_end(end)
            b.call(self.mg.rt.free, [old])
            b.ret_void()
        return fn

    def resize(self, b, s, minused):
        b.call(self.resize_fn(), [s, minused])

    def grow_target(self, b, used):
        return b.select(b.icmp_signed(">", used, I64(50000)), b.mul(used, I64(2)),
                        b.mul(used, I64(4)))

    def add(self, b, s, key, h):
        """set_add_entry: key goes in (into the first dummy on its probe path if there is
        one, else the empty slot that ends it; then a resize at 3/5 fill)."""
        fn, f = self._fn("add", ir.VoidType(), [PTR, self.key_t, I64])
        if f is not None:
            fs, fk, fh = fn.args
            table, mask = get(f.b, fs, TABLE), get(f.b, fs, MASK)
            free = f.var(I64(-1))

            def visit(j, nxt):
                fb = f.b
                st = self.state(fb, table, j)
                unused, other, act, cmp, dummy, found = (
                    f.block(x) for x in ("a.unused", "a.other", "a.act", "a.cmp", "a.dummy",
                                         "a.found"))
                fb.cbranch(fb.icmp_unsigned("==", st, I8(EMPTY)), unused, other)
                fb.position_at_end(other)
                fb.cbranch(fb.icmp_unsigned("==", st, I8(ACTIVE)), act, dummy)
                fb.position_at_end(act)
                same_h = fb.icmp_signed("==", fb.load(self.entry(fb, table, j, 0), typ=I64), fh)
                fb.cbranch(same_h, cmp, nxt)
                fb.position_at_end(cmp)
                k = fb.load(self.entry(fb, table, j, 1), typ=self.key_t)
                fb.cbranch(self.same(fb, k, fk), found, nxt)
                fb.position_at_end(found)
                fb.ret_void()
                fb.position_at_end(dummy)
                fb.store(j, free)  # the last dummy on the path (CPython 3.11's freeslot)
                fb.branch(nxt)
                fb.position_at_end(unused)
                self._add_at(f, fs, table, mask, free, j, fk, fh)
            self._probe(f, table, mask, fh, visit)
        b.call(fn, [s, key, h])

    def _add_at(self, f, s, table, mask, free, j, key, h):
        b = f.b
        fr = f.load(free)
        reuse, fresh, grow = f.block("a.reuse"), f.block("a.fresh"), f.block("a.grow")
        b.cbranch(b.icmp_signed(">=", fr, I64(0)), reuse, fresh)
        b.position_at_end(reuse)
        self.store_entry(b, table, fr, h, key)
        put(b, s, USED, b.add(get(b, s, USED), I64(1)))
        b.ret_void()
        b.position_at_end(fresh)
        self.store_entry(b, table, j, h, key)
        fill = b.add(get(b, s, FILL), I64(1))
        used = b.add(get(b, s, USED), I64(1))
        put(b, s, FILL, fill)
        put(b, s, USED, used)
        full = b.icmp_unsigned(">=", b.mul(fill, I64(5)), b.mul(mask, I64(3)))
        done = f.block("a.done")
        b.cbranch(full, grow, done)
        b.position_at_end(done)
        b.ret_void()
        b.position_at_end(grow)
        self.resize(b, s, self.grow_target(b, used))
        b.ret_void()

    def discard(self, b, s, key, h):
        """i1: key was there (its entry becomes a dummy)."""
        fn, f = self._fn("discard", I1, [PTR, self.key_t, I64])
        if f is not None:
            fs, fk, fh = fn.args
            fb = f.b
            j = self.lookup(fb, fs, fk, fh)
            there, absent = f.block("d.there"), f.block("d.absent")
            fb.cbranch(fb.icmp_signed(">=", j, I64(0)), there, absent)
            fb.position_at_end(absent)
            fb.ret(ir.Constant(I1, 0))
            fb.position_at_end(there)
            table = get(fb, fs, TABLE)
            fb.store(I64(-1), self.entry(fb, table, j, 0))
            fb.store(I8(DUMMY), self.entry(fb, table, j, 2))
            put(fb, fs, USED, fb.sub(get(fb, fs, USED), I64(1)))
            fb.ret(ir.Constant(I1, 1))
        return b.call(fn, [s, key, h])

    def merge(self, b, s, o):
        """set_merge(s, o): s |= o for a set o."""
        fn, f = self._fn("merge", ir.VoidType(), [PTR, PTR])
        if f is not None:
            self._emit_merge(f, *fn.args)
        b.call(fn, [s, o])

    def _emit_merge(self, f, s, o):
        b = f.b
        slot = f.var(I64(0))
        quit_, go, sized, copy, clean, normal, ret = (f.block(x) for x in (
            "m.quit", "m.go", "m.sized", "m.copy", "m.clean", "m.normal", "m.ret"))
        ou = get(b, o, USED)
        b.cbranch(b.or_(b.icmp_unsigned("==", s, o), b.icmp_signed("==", ou, I64(0))),
                  quit_, go)
        b.position_at_end(quit_)
        b.ret_void()
        b.position_at_end(go)
        big = b.icmp_signed(">=", b.mul(b.add(get(b, s, FILL), ou), I64(5)),
                            b.mul(get(b, s, MASK), I64(3)))
        with b.if_then(big):
            self.resize(b, s, b.mul(b.add(get(b, s, USED), ou), I64(2)))
        b.branch(sized)
        b.position_at_end(sized)
        empty = b.icmp_signed("==", get(b, s, FILL), I64(0))
        same_size = b.icmp_signed("==", get(b, s, MASK), get(b, o, MASK))
        no_dummy = b.icmp_signed("==", get(b, o, FILL), ou)
        b.cbranch(b.and_(empty, b.and_(same_size, no_dummy)), copy, clean)
        b.position_at_end(copy)  # the same slots
        st = get(b, s, TABLE)
        ot, n = get(b, o, TABLE), b.add(get(b, o, MASK), I64(1))
        b.call(self.mg.rt.memmove, [st, ot, b.mul(n, self.esize(b)), ir.Constant(I1, 0)])
        put(b, s, FILL, get(b, o, FILL))
        put(b, s, USED, ou)
        b.branch(ret)
        b.position_at_end(clean)
        into = f.block("m.into")
        b.cbranch(empty, into, normal)
        b.position_at_end(into)
        put(b, s, FILL, ou)
        put(b, s, USED, ou)
        table, mask = get(b, s, TABLE), get(b, s, MASK)
        ins = self.insert_clean_fn()
        self.each_active(b, slot, o, lambda k, h: b.call(ins, [table, mask, k, h]))
        b.branch(ret)
        b.position_at_end(normal)
        self.each_active(b, slot, o, lambda k, h: self.add(b, s, k, h))
        b.branch(ret)
        b.position_at_end(ret)
        b.ret_void()

    def pop(self, b, s):
        """The key at the finger's next active entry, removed (s is not empty)."""
        fn, f = self._fn("pop", self.key_t, [PTR])
        if f is not None:
            s_ = fn.args[0]
            fb = f.b
            table, mask = get(fb, s_, TABLE), get(fb, s_, MASK)
            i = f.var(fb.and_(get(fb, s_, FINGER), mask))
            head, step, take = f.block("pop.h"), f.block("pop.s"), f.block("pop.t")
            fb.branch(head)
            fb.position_at_end(head)
            k = f.load(i)
            fb.cbranch(fb.icmp_unsigned("==", self.state(fb, table, k), I8(ACTIVE)), take, step)
            fb.position_at_end(step)
            nk = fb.add(k, I64(1))
            fb.store(fb.select(fb.icmp_signed(">", nk, mask), I64(0), nk), i)
            fb.branch(head)
            fb.position_at_end(take)
            key = fb.load(self.entry(fb, table, k, 1), typ=self.key_t)
            fb.store(I64(-1), self.entry(fb, table, k, 0))
            fb.store(I8(DUMMY), self.entry(fb, table, k, 2))
            put(fb, s_, USED, fb.sub(get(fb, s_, USED), I64(1)))
            put(fb, s_, FINGER, fb.add(k, I64(1)))
            fb.ret(key)
        return b.call(fn, [s])

    def clear(self, b, s):
        b.call(self.mg.rt.free, [get(b, s, TABLE)])
        put(b, s, TABLE, self.new_table(b, I64(MINSIZE)))
        put(b, s, MASK, I64(MINSIZE - 1))
        put(b, s, FILL, I64(0))
        put(b, s, USED, I64(0))


# ----------------------------------------------------------------------------- hashes

def _module_fn(mg, name, ret, argtys):
    """(fn, a _Body to build it) for a new internal function, (fn, None) if the module
    has it already."""
    fn = mg.llmod.globals.get(name)
    if fn is not None:
        return fn, None
    fn = ir.Function(mg.llmod, ir.FunctionType(ret, argtys), name)
    fn.linkage = "internal"
    return fn, _Body(fn)


def _fix_minus_one(b, h):
    return b.select(b.icmp_signed("==", h, I64(-1)), I64(-2), h)


def int_hash(mg) -> ir.Function:
    """CPython's hash of an int in int64: sign * (|v| mod (2**61 - 1)), -1 -> -2."""
    fn, f = _module_fn(mg, "ember.hash.i64", I64, [I64])
    if f is not None:
        b, v = f.b, fn.args[0]
        neg = b.icmp_signed("<", v, I64(0))
        r = b.urem(b.select(neg, b.sub(I64(0), v), v), I64(MODULUS))
        b.ret(_fix_minus_one(b, b.select(neg, b.sub(I64(0), r), r)))
    return fn


def float_hash(mg) -> ir.Function:
    """CPython's _Py_HashDouble for a finite or infinite double (28 bits of the mantissa
    at a time into a residue modulo 2**61 - 1, then the exponent as a rotation)."""
    fn, f = _module_fn(mg, "ember.hash.f64", I64, [F64])
    if f is None:
        return fn
    b, v = f.b, fn.args[0]
    inf, finite = f.block("h.inf"), f.block("h.finite")
    e32 = f.var(I32(0), I32)
    m, x = f.var(ir.Constant(F64, 0.0), F64), f.var(I64(0))
    b.cbranch(b.fcmp_ordered("==", b.call(_fabs(mg), [v]), ir.Constant(F64, float("inf"))),
              inf, finite)
    b.position_at_end(inf)
    b.ret(b.select(b.fcmp_ordered(">", v, ir.Constant(F64, 0.0)), I64(314159), I64(-314159)))
    b.position_at_end(finite)
    frexp = mg.llmod.globals.get("frexp") or ir.Function(
        mg.llmod, ir.FunctionType(F64, [F64, PTR]), "frexp")
    mv = b.call(frexp, [v, e32])
    neg = b.fcmp_ordered("<", mv, ir.Constant(F64, 0.0))
    b.store(b.select(neg, b.fneg(mv), mv), m)
    e = f.var(b.sext(f.load(e32, I32), I64))
    head, body, done = f.block("h.head"), f.block("h.body"), f.block("h.done")
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(b.fcmp_ordered("!=", f.load(m, F64), ir.Constant(F64, 0.0)), body, done)
    b.position_at_end(body)
    xv = f.load(x)
    xv = b.or_(b.and_(b.shl(xv, I64(28)), I64(MODULUS)), b.lshr(xv, I64(61 - 28)))
    mv2 = b.fmul(f.load(m, F64), ir.Constant(F64, 268435456.0))
    b.store(b.sub(f.load(e), I64(28)), e)
    y = b.fptoui(mv2, I64)
    b.store(b.fsub(mv2, b.uitofp(y, F64)), m)
    xv = b.add(xv, y)
    b.store(b.select(b.icmp_unsigned(">=", xv, I64(MODULUS)), b.sub(xv, I64(MODULUS)), xv), x)
    b.branch(head)
    b.position_at_end(done)
    ev = f.load(e)
    pos = b.srem(ev, I64(61))
    negr = b.sub(I64(60), b.srem(b.sub(I64(-1), ev), I64(61)))
    ev = b.select(b.icmp_signed(">=", ev, I64(0)), pos, negr)
    xv = f.load(x)
    xv = b.or_(b.and_(b.shl(xv, ev), I64(MODULUS)), b.lshr(xv, b.sub(I64(61), ev)))
    xv = b.select(neg, b.sub(I64(0), xv), xv)
    b.ret(_fix_minus_one(b, xv))
    return fn


def _fabs(mg):
    return mg.intrinsic("llvm.fabs", F64)
