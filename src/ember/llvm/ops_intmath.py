"""Integer math natively: math.gcd, lcm, factorial, isqrt, comb, perm, prod of ints and
pow(base, exp, mod) — exact, with the kernel's errors (ValueError for a negative
argument, OverflowError where ember's int64 result would not hold the exact one: each
emitter fails to the kernel, which raises). Wide intermediates use i128."""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.layout import I64
from ember.llvm.ops_table import args, emitter, fail, load_elem

I128 = ir.IntType(128)
INT64_MAX = (1 << 63) - 1


def _abs_u(b, v):
    """|v| as an unsigned i64 (|INT64_MIN| is 2**63)."""
    return b.select(b.icmp_signed("<", v, I64(0)), b.sub(I64(0), v), v)


def _loop(g, body_fn, cond_fn):
    """while cond(): body() (their values live in slots)."""
    b = g.b
    head, body, done = (b.append_basic_block(x) for x in ("im.head", "im.body", "im.done"))
    b.branch(head)
    b.position_at_end(head)
    b.cbranch(cond_fn(), body, done)
    b.position_at_end(body)
    body_fn()
    b.branch(head)
    b.position_at_end(done)


def gcd_u(g, a, c):
    """gcd of two unsigned i64 magnitudes (Euclid)."""
    b = g.b
    x, y = g.slot(T.I64), g.slot(T.I64)
    b.store(a, x)
    b.store(c, y)

    def step():
        yv = b.load(y, typ=I64)
        b.store(b.urem(b.load(x, typ=I64), yv), y)
        b.store(yv, x)
    _loop(g, step, lambda: b.icmp_unsigned("!=", b.load(y, typ=I64), I64(0)))
    return b.load(x, typ=I64)


@emitter("math.gcd")
def _gcd(g, op):
    a, c = args(g, op)
    r = gcd_u(g, _abs_u(g.b, a), _abs_u(g.b, c))
    fail(g, op, g.b.icmp_signed("<", r, I64(0)), [a, c], cls="OverflowError")  # 2**63
    return r


@emitter("math.lcm")
def _lcm(g, op):
    a, c = args(g, op)
    b = g.b
    ua, uc = _abs_u(b, a), _abs_u(b, c)
    zero = b.or_(b.icmp_signed("==", a, I64(0)), b.icmp_signed("==", c, I64(0)))
    d = gcd_u(g, ua, uc)
    q = b.udiv(ua, b.select(zero, I64(1), d))
    wide = b.mul(b.zext(q, I128), b.zext(uc, I128))
    over = b.and_(b.not_(zero), b.icmp_unsigned(">", wide, ir.Constant(I128, INT64_MAX)))
    fail(g, op, over, [a, c], cls="OverflowError")
    return b.select(zero, I64(0), b.trunc(wide, I64))


@emitter("math.factorial")
def _factorial(g, op):
    (n,) = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("<", n, I64(0)), [n], cls="ValueError")
    fail(g, op, b.icmp_signed(">", n, I64(20)), [n], cls="OverflowError")
    acc, i = g.slot(T.I64), g.slot(T.I64)
    b.store(I64(1), acc)
    b.store(I64(2), i)

    def step():
        iv = b.load(i, typ=I64)
        b.store(b.mul(b.load(acc, typ=I64), iv), acc)
        b.store(b.add(iv, I64(1)), i)
    _loop(g, step, lambda: b.icmp_signed("<=", b.load(i, typ=I64), n))
    return b.load(acc, typ=I64)


@emitter("math.isqrt")
def _isqrt(g, op):
    (n,) = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("<", n, I64(0)), [n], cls="ValueError")
    sqrt = g.mg.intrinsic("llvm.sqrt", ir.DoubleType())
    r = g.slot(T.I64)
    b.store(b.fptosi(b.call(sqrt, [b.sitofp(n, ir.DoubleType())]), I64), r)
    wn = b.sext(n, I128)

    def sq(v):
        w = b.sext(v, I128)
        return b.mul(w, w)
    # the double's root is within one of the exact one: correct it both ways
    _loop(g, lambda: b.store(b.sub(b.load(r, typ=I64), I64(1)), r),
          lambda: b.icmp_signed(">", sq(b.load(r, typ=I64)), wn))
    _loop(g, lambda: b.store(b.add(b.load(r, typ=I64), I64(1)), r),
          lambda: b.icmp_signed("<=", sq(b.add(b.load(r, typ=I64), I64(1))), wn))
    return b.load(r, typ=I64)


def _negative_args(g, op, n, k):
    b = g.b
    fail(g, op, b.or_(b.icmp_signed("<", n, I64(0)), b.icmp_signed("<", k, I64(0))), [n, k],
         cls="ValueError")


@emitter("math.comb")
def _comb(g, op):
    """C(n, k) by c = c * (n - k + i) / i for i = 1..min(k, n - k), exactly in int64 (the
    division first: with d = gcd(c, i), i / d divides n - k + i): every partial value is a
    smaller binomial, so one past int64 means the result is too."""
    n, k = args(g, op)
    b = g.b
    _negative_args(g, op, n, k)
    kk = b.select(b.icmp_signed(">", k, b.sub(n, k)), b.sub(n, k), k)
    c, i, over = g.slot(T.I64), g.slot(T.I64), g.slot(T.I64)
    b.store(b.select(b.icmp_signed(">", k, n), I64(0), I64(1)), c)
    b.store(I64(1), i)
    b.store(I64(0), over)

    def step():
        iv, cv = b.load(i, typ=I64), b.load(c, typ=I64)
        d = gcd_u(g, cv, iv)
        r = b.smul_with_overflow(b.udiv(cv, d), b.udiv(b.add(b.sub(n, kk), iv), b.udiv(iv, d)))
        b.store(b.extract_value(r, 0), c)
        b.store(b.zext(b.extract_value(r, 1), I64), over)
        b.store(b.add(iv, I64(1)), i)
    _loop(g, step, lambda: b.and_(b.and_(b.icmp_signed("<=", b.load(i, typ=I64), kk),
                                         b.icmp_signed("<=", k, n)),
                                  b.icmp_signed("==", b.load(over, typ=I64), I64(0))))
    fail(g, op, b.icmp_signed("!=", b.load(over, typ=I64), I64(0)), [n, k],
         cls="OverflowError")
    return b.load(c, typ=I64)


@emitter("math.perm")
def _perm(g, op):
    n, k = args(g, op)
    b = g.b
    _negative_args(g, op, n, k)
    p, i, over = g.slot(T.I64), g.slot(T.I64), g.slot(T.I64)
    b.store(b.select(b.icmp_signed(">", k, n), I64(0), I64(1)), p)
    b.store(I64(0), i)
    b.store(I64(0), over)

    def step():
        iv = b.load(i, typ=I64)
        r = b.smul_with_overflow(b.load(p, typ=I64), b.sub(n, iv))
        b.store(b.extract_value(r, 0), p)
        b.store(b.zext(b.extract_value(r, 1), I64), over)
        b.store(b.add(iv, I64(1)), i)
    _loop(g, step, lambda: b.and_(b.and_(b.icmp_signed("<", b.load(i, typ=I64), k),
                                         b.icmp_signed("<=", k, n)),
                                  b.icmp_signed("==", b.load(over, typ=I64), I64(0))))
    fail(g, op, b.icmp_signed("!=", b.load(over, typ=I64), I64(0)), [n, k],
         cls="OverflowError")
    return b.load(p, typ=I64)


@emitter("math.prod_int")
def _prod_int(g, op):
    """The product in i128: once |p| passes 2**63 no nonzero factor brings it back (p is
    pinned to 0 then, and the overflow remembered), and a zero anywhere makes the result
    0 (the kernel checks only the final value). An overflow leaves for the VM, whose
    error names the list."""
    (xs,) = args(g, op)
    b = g.b
    i8 = ir.IntType(8)
    wide, big, zero = g.alloca_b.alloca(I128), g.slot(T.BOOL), g.slot(T.BOOL)
    b.store(ir.Constant(I128, 1), wide)
    b.store(i8(0), big)
    b.store(i8(0), zero)

    def body(k):
        x = load_elem(g, xs, k, T.I64)
        w = b.mul(b.load(wide, typ=I128), b.sext(x, I128))
        mag = b.select(b.icmp_signed("<", w, ir.Constant(I128, 0)),
                       b.sub(ir.Constant(I128, 0), w), w)
        over = b.icmp_signed(">", mag, ir.Constant(I128, 1 << 63))
        b.store(b.or_(b.load(big, typ=i8), b.zext(over, i8)), big)
        b.store(b.or_(b.load(zero, typ=i8), b.zext(b.icmp_signed("==", x, I64(0)), i8)), zero)
        b.store(b.select(over, ir.Constant(I128, 0), w), wide)
    RT.count_loop(b, g.slot(T.I64), RT.load_field(b, xs, RT.LEN), body)
    w = b.load(wide, typ=I128)
    has_zero = b.icmp_unsigned("!=", b.load(zero, typ=i8), i8(0))
    out = b.or_(b.icmp_unsigned("!=", b.load(big, typ=i8), i8(0)),
                b.or_(b.icmp_signed(">", w, ir.Constant(I128, INT64_MAX)),
                      b.icmp_signed("<", w, ir.Constant(I128, -(1 << 63)))))
    # (the error's message shows the whole list: the VM raises it)
    g.deopt_if(b.and_(b.not_(has_zero), out), "math.prod past int64", g.loc)
    return b.select(has_zero, I64(0), b.trunc(w, I64))


def mulmod(g):
    """u64 mulmod(a, b, m) for a, b < m < 2**63: one multiply and remainder when m fits
    32 bits, else shift-and-add (no 128-bit division: that is a C library call)."""
    name = "ember.mulmod"
    fn = g.mg.llmod.globals.get(name)
    if fn is not None:
        return fn
    fn = ir.Function(g.mg.llmod, ir.FunctionType(I64, [I64, I64, I64]), name)
    fn.linkage = "internal"
    a, c, m = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    small, wide = fn.append_basic_block("small"), fn.append_basic_block("wide")
    b.cbranch(b.icmp_unsigned("<", m, I64(1 << 32)), small, wide)
    b.position_at_end(small)
    b.ret(b.urem(b.mul(a, c), m))
    b.position_at_end(wide)
    r, x, k = (b.alloca(I64) for _ in range(3))
    b.store(I64(0), r)
    b.store(a, x)
    b.store(c, k)
    head, body, done = (fn.append_basic_block(n) for n in ("mm.head", "mm.body", "mm.done"))
    b.branch(head)
    b.position_at_end(head)
    kv = b.load(k, typ=I64)
    b.cbranch(b.icmp_unsigned("!=", kv, I64(0)), body, done)
    b.position_at_end(body)
    xv, rv = b.load(x, typ=I64), b.load(r, typ=I64)

    def addmod(u, v):
        t = b.add(u, v)  # < 2**64: u, v < m < 2**63
        return b.select(b.icmp_unsigned(">=", t, m), b.sub(t, m), t)
    odd = b.icmp_unsigned("!=", b.and_(kv, I64(1)), I64(0))
    b.store(b.select(odd, addmod(rv, xv), rv), r)
    b.store(addmod(xv, xv), x)
    b.store(b.lshr(kv, I64(1)), k)
    b.branch(head)
    b.position_at_end(done)
    b.ret(b.load(r, typ=I64))
    return fn


@emitter("builtins.pow_mod")
def _pow_mod(g, op):
    """pow(base, exp, mod) for exp >= 0 by squaring, the result with mod's sign (Python's
    %); a negative exp (a modular inverse) leaves for the VM."""
    base, e, m = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("==", m, I64(0)), [base, e, m], cls="ValueError")
    g.deopt_if(b.icmp_signed("<", e, I64(0)), "pow() with a negative exponent", g.loc)
    um = _abs_u(b, m)
    rb = b.urem(_abs_u(b, base), um)
    neg_base = b.and_(b.icmp_signed("<", base, I64(0)), b.icmp_unsigned("!=", rb, I64(0)))
    x0 = b.select(neg_base, b.sub(um, rb), rb)
    mm = mulmod(g)
    r, x, k = g.slot(T.I64), g.slot(T.I64), g.slot(T.I64)
    b.store(b.urem(I64(1), um), r)
    b.store(x0, x)
    b.store(e, k)

    def step():
        kv, xv = b.load(k, typ=I64), b.load(x, typ=I64)
        odd = b.icmp_unsigned("!=", b.and_(kv, I64(1)), I64(0))
        with b.if_then(odd):
            b.store(b.call(mm, [b.load(r, typ=I64), xv, um]), r)
        b.store(b.call(mm, [xv, xv, um]), x)
        b.store(b.lshr(kv, I64(1)), k)
    _loop(g, step, lambda: b.icmp_signed(">", b.load(k, typ=I64), I64(0)))
    rv = b.load(r, typ=I64)
    neg = b.and_(b.icmp_signed("<", m, I64(0)), b.icmp_signed("!=", rv, I64(0)))
    return b.select(neg, b.add(rv, m), rv)
