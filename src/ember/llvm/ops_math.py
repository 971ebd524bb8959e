"""More of the lowering table (ops_table.EMITTERS): the math functions CPython computes
itself rather than through one libm call, and round(x, n) of floats.

- `math.log(x[, base])`: CPython's m_log (ValueError for x <= 0, NaN and +inf pass);
  with a base, `m_log(x) / m_log(base)` (ZeroDivisionError for base 1).
- `math.fmod`, `math.remainder`: libm's exact results; a NaN from non-NaN operands is
  CPython's ValueError.
- `math.hypot(x, y)`: CPython's vector_norm (3.10+): exact squares as double-length
  products, a compensated sum and one differential correction, scaled by a power of two.
- `round(x, n)`: CPython's double_round is correctly rounded decimal arithmetic (dtoa mode
  3, then strtod). The C library's `%.*e` formatting is correctly rounded too (glibc and
  the BSDs format the exact binary value, ties to even), so the digits up to 10**-n come
  from snprintf and go back through strtod; an infinite result is CPython's OverflowError.
- `x.real`, `x.imag`, `x.conjugate()` of ints and floats.
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm.layout import F64, I8, I32, I64, PTR, NotNative
from ember.llvm.ops_table import _isnan, args, emitter, fail

ROUND_BUF = 800
"""Bytes for snprintf's digits: at most 1 + 631 digits, a sign, a point and an exponent."""
NDIGITS_MAX = 323   # CPython: (DBL_MANT_DIG - DBL_MIN_EXP) * 0.30103
NDIGITS_MIN = -308  # CPython: -(DBL_MAX_EXP + 1) * 0.30103


def _const(x: float):
    return ir.Constant(F64, x)


# ----------------------------------------------------------------------------- real numbers

@emitter("int.real", "float.real", "int.conjugate", "float.conjugate")
def _same(g, op):
    return args(g, op)[0]


@emitter("int.imag")
def _int_imag(g, op):
    return I64(0)


@emitter("float.imag")
def _float_imag(g, op):
    return _const(0.0)


# ----------------------------------------------------------------------------- log

def _m_log(g, x):
    """CPython's m_log without its error: libm's log for finite x > 0, else x or NaN."""
    b = g.b
    pos = b.fcmp_ordered(">", x, _const(0.0))
    finite = b.fcmp_ordered("<", b.call(g.mg.intrinsic("llvm.fabs", F64), [x]),
                            _const(float("inf")))
    r = b.call(g.mg.libm("log", 1), [b.select(pos, x, _const(1.0))])
    special = b.select(b.or_(_isnan(g, x), b.and_(pos, b.not_(finite))), x, _const(float("nan")))
    return b.select(b.and_(pos, finite), r, special)


def _domain(g, x):
    return g.b.fcmp_ordered("<=", x, _const(0.0))


@emitter("math.log")
def _math_log(g, op):
    x, base = op.operands
    xv = g.native(x)
    if base.type == T.NONE:
        fail(g, op, _domain(g, xv), [xv], kinds=("f64", "none"), cls="ValueError")
        return _m_log(g, xv)
    if base.type == T.F64:
        return _log_base(g, op, xv, g.native(base))
    if base.type == T.OptionalType(T.F64):
        return _log_optional(g, op, xv, g.native(base))
    raise NotNative(f"math.log of a {base.type} base")


def _log_base(g, op, x, base, kinds=("f64", "f64")):
    b = g.b
    fail(g, op, b.or_(_domain(g, x), _domain(g, base)), [x, base], kinds=kinds,
         cls="ValueError")
    den = _m_log(g, base)
    fail(g, op, b.fcmp_ordered("==", den, _const(0.0)), [x, base], kinds=kinds,
         cls="ZeroDivisionError")
    return b.fdiv(_m_log(g, x), den)


def _log_optional(g, op, x, opt):
    b = g.b
    out = g.slot(T.F64)
    present = b.icmp_unsigned("!=", b.extract_value(opt, 0), I8(0))
    with b.if_else(present) as (then, otherwise):
        with then:
            b.store(_log_base(g, op, x, b.extract_value(opt, 1)), out)
        with otherwise:
            fail(g, op, _domain(g, x), [x], kinds=("f64", ("const", None)), cls="ValueError")
            b.store(_m_log(g, x), out)
    return b.load(out, typ=F64)


# ----------------------------------------------------------------------------- fmod, remainder

@emitter("math.fmod", "math.remainder")
def _math_fmod(g, op):
    x, y = args(g, op)
    b = g.b
    r = (b.call(g.mg.libm("fmod", 2), [x, y]) if op.name == "math.fmod"
         else _m_remainder(g, x, y))
    bad = b.and_(_isnan(g, r), b.not_(b.or_(_isnan(g, x), _isnan(g, y))))
    fail(g, op, bad, [x, y], cls="ValueError")
    return r  # C99 (and CPython): fmod(x, ±inf) is x for finite x, as libm gives it


def _m_remainder(g, x, y):
    """CPython's m_remainder (its zeros carry x's sign, where glibc's remainder may not)."""
    b = g.b
    fabs, fmod = g.mg.intrinsic("llvm.fabs", F64), g.mg.libm("fmod", 2)
    ax, ay = b.call(fabs, [x]), b.call(fabs, [y])
    m = b.call(fmod, [ax, ay])
    c = b.fsub(ay, m)
    half = b.fsub(m, b.fmul(_const(2.0), b.call(fmod, [b.fmul(_const(0.5), b.fsub(ax, m)), ay])))
    r = b.select(b.fcmp_ordered("<", m, c), m,
                 b.select(b.fcmp_ordered(">", m, c), b.fneg(c), half))
    one = b.call(g.mg.intrinsic("llvm.copysign", F64, 2), [_const(1.0), x])
    finite = b.fmul(one, r)
    inf = _const(float("inf"))
    fin_x, fin_y = b.fcmp_ordered("<", ax, inf), b.fcmp_ordered("<", ay, inf)
    nan = _const(float("nan"))
    special = b.select(_isnan(g, x), x, b.select(_isnan(g, y), y, b.select(fin_x, x, nan)))
    finite = b.select(b.fcmp_ordered("==", y, _const(0.0)), nan, finite)
    return b.select(b.and_(fin_x, fin_y), finite, special)


# ----------------------------------------------------------------------------- hypot

def _two_prod(g, x, y):
    """(hi, lo) with hi + lo == x*y exactly (an FMA: exact wherever it runs)."""
    b = g.b
    hi = b.fmul(x, y)
    lo = b.call(g.mg.intrinsic("llvm.fma", F64, 3), [x, y, b.fneg(hi)])
    return hi, lo


def _fast_sum(g, a, c):
    """(hi, lo) with hi + lo == a + c exactly, for |a| >= |c|."""
    b = g.b
    hi = b.fadd(a, c)
    return hi, b.fadd(b.fsub(a, hi), c)


def _norm_scaled(g, xs, scale):
    """CPython's vector_norm loop and correction on |x| values, for a power-of-two scale
    that brings the largest into [0.5, 1)."""
    b = g.b
    csum, frac1, frac2 = _const(1.0), _const(0.0), _const(0.0)
    for x in xs:
        x = b.fmul(x, scale)
        hi, lo = _two_prod(g, x, x)
        csum, slo = _fast_sum(g, csum, hi)
        frac1, frac2 = b.fadd(frac1, lo), b.fadd(frac2, slo)
    h = b.call(g.mg.intrinsic("llvm.sqrt", F64),
               [b.fadd(b.fsub(csum, _const(1.0)), b.fadd(frac1, frac2))])
    hi, lo = _two_prod(g, b.fsub(_const(0.0), h), h)
    csum, slo = _fast_sum(g, csum, hi)
    frac1, frac2 = b.fadd(frac1, lo), b.fadd(frac2, slo)
    x = b.fadd(b.fsub(csum, _const(1.0)), b.fadd(frac1, frac2))
    h = b.fadd(h, b.fdiv(x, b.fmul(_const(2.0), h)))
    return b.fdiv(h, scale)


def _pow2_scale(g, m):
    """2**-e for m = f * 2**e, 0.5 <= f < 1 (frexp), from m's exponent bits; m normal."""
    b = g.b
    bits = b.bitcast(m, I64)
    biased = b.and_(b.lshr(bits, I64(52)), I64(0x7FF))
    # m = 1.x * 2**(biased - 1023) = 0.1x * 2**(biased - 1022): scale = 2**(1022 - biased),
    # subnormal (2**-1023, 2**-1024) for the top two binades
    normal = b.shl(b.sub(I64(2045), biased), I64(52))
    sub = b.shl(I64(1), b.sub(I64(2096), biased))
    return b.bitcast(b.select(b.icmp_signed(">=", biased, I64(2045)), sub, normal), F64)


@emitter("math.hypot")
def _math_hypot(g, op):
    """CPython's math_hypot: the largest |x| ignoring NaNs; inf if it is inf (even beside a
    NaN), else NaN if any is NaN, else 0.0 or the scaled norm."""
    b = g.b
    xs = [b.call(g.mg.intrinsic("llvm.fabs", F64), [v]) for v in args(g, op)]
    nans = [_isnan(g, x) for x in xs]
    clean = [b.select(nan, _const(0.0), x) for x, nan in zip(xs, nans)]
    m = b.select(b.fcmp_ordered(">", clean[1], clean[0]), clean[1], clean[0])
    dmin = _const(2.2250738585072014e-308)  # below DBL_MIN CPython rescales by it
    tiny = b.fcmp_ordered("<", m, dmin)
    ys = [b.select(tiny, b.fdiv(x, dmin), x) for x in clean]
    r = _norm_scaled(g, ys, _pow2_scale(g, b.select(tiny, b.fdiv(m, dmin), m)))
    r = b.select(tiny, b.fmul(dmin, r), r)
    r = b.select(b.fcmp_ordered("==", m, _const(0.0)), m, r)
    r = b.select(b.or_(*nans), _const(float("nan")), r)
    return b.select(b.fcmp_ordered("==", m, _const(float("inf"))), m, r)


# ----------------------------------------------------------------------------- round(x, n)

@emitter("float.round_n")
def _float_round_n(g, op):
    x, n = args(g, op)
    b = g.b
    r = b.call(_round_n_fn(g.mg), [x, n])
    finite = b.fcmp_ordered("<", b.call(g.mg.intrinsic("llvm.fabs", F64), [x]), _const(float("inf")))
    overflow = b.and_(finite, b.fcmp_ordered("==", b.call(g.mg.intrinsic("llvm.fabs", F64), [r]),
                                             _const(float("inf"))))
    fail(g, op, overflow, [x, n], cls="OverflowError")
    return r


def _libc(mg, name, ret, params, var_arg=False):
    fn = mg.llmod.globals.get(name)
    if fn is None:
        fn = ir.Function(mg.llmod, ir.FunctionType(ret, params, var_arg=var_arg), name)
    return fn


def _cstr(mg, name: str, text: str):
    gv = mg.llmod.globals.get(name)
    if gv is None:
        data = bytearray(text.encode() + b"\0")
        gv = ir.GlobalVariable(mg.llmod, ir.ArrayType(I8, len(data)), name)
        gv.initializer = ir.Constant(ir.ArrayType(I8, len(data)), data)
        gv.global_constant = True
        gv.linkage = "internal"
    return gv


def _round_n_fn(mg):
    """double ember.round_n(double x, i64 n): CPython's float.__round__(x, n), an infinite
    result standing for its OverflowError."""
    name = "ember.round_n"
    fn = mg.llmod.globals.get(name)
    if fn is not None:
        return fn
    fn = ir.Function(mg.llmod, ir.FunctionType(F64, [F64, I64]), name)
    fn.linkage = "internal"
    _RoundN(mg, fn).emit()
    return fn


class _RoundN:
    def __init__(self, mg, fn):
        self.mg, self.fn = mg, fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.snprintf = _libc(mg, "snprintf", I32, [PTR, I64, PTR], var_arg=True)
        self.strtod = _libc(mg, "strtod", F64, [PTR, PTR])
        self.strtol = _libc(mg, "strtol", I64, [PTR, PTR, I32])

    def ret_if(self, cond, value):
        b = self.b
        with b.if_then(cond):
            b.ret(value)

    def emit(self):
        b = self.b
        x, n = self.fn.args
        self.buf = b.alloca(ir.ArrayType(I8, ROUND_BUF))
        self.tail, self.idx = b.alloca(I8), b.alloca(I64)
        fabs = self.mg.intrinsic("llvm.fabs", F64)
        ax = b.call(fabs, [x])
        self.ret_if(b.fcmp_unordered(">=", ax, _const(float("inf"))), x)  # NaN, ±inf
        self.ret_if(b.fcmp_ordered("==", x, _const(0.0)), x)            # ±0.0
        self.ret_if(b.icmp_signed(">", n, I64(NDIGITS_MAX)), x)
        zero = b.call(self.mg.intrinsic("llvm.copysign", F64, 2), [_const(0.0), x])
        self.ret_if(b.icmp_signed("<", n, I64(NDIGITS_MIN)), zero)
        p = b.gep(self.buf, [I32(0), I32(0)])
        # 61 significant digits: the decimal exponent, and the first digits for p == -1
        b.call(self.snprintf, [p, I64(ROUND_BUF), self.fmt("%.60e"), x])
        neg = b.fcmp_ordered("<", x, _const(0.0))
        digits = b.gep(p, [b.zext(neg, I64)])
        expo = b.call(self.strtol, [b.gep(digits, [I64(63)]), ir.Constant(PTR, None), I32(10)])
        prec = b.add(expo, n)
        with b.if_then(b.icmp_signed(">=", prec, I64(0))):
            b.call(self.snprintf, [p, I64(ROUND_BUF), self.fmt("%.*e"), b.trunc(prec, I32), x])
            b.ret(b.call(self.strtod, [p, ir.Constant(PTR, None)]))
        self.ret_if(b.icmp_signed("<", prec, I64(-1)), zero)
        self.ret_if(b.not_(self.rounds_up(digits)), zero)
        # up to ±10**-n
        b.call(self.snprintf, [p, I64(ROUND_BUF), self.fmt("%s1e%lld"),
                               b.select(neg, self.fmt("-"), self.fmt("")), b.sub(I64(0), n)])
        b.ret(b.call(self.strtod, [p, ir.Constant(PTR, None)]))

    def rounds_up(self, digits):
        """Whether d.ddd… (first digit, then 60 after the point) is above one half of 10."""
        b = self.b
        first = b.load(digits, typ=I8)
        over = b.icmp_unsigned(">", first, I8(ord("5")))
        tail, idx = self.tail, self.idx
        b.store(I8(0), tail)
        b.store(I64(2), idx)
        head, body, done = (self.fn.append_basic_block(s) for s in ("rt.head", "rt.body", "rt.done"))
        b.branch(head)
        b.position_at_end(head)
        i = b.load(idx, typ=I64)
        b.cbranch(b.icmp_signed("<", i, I64(62)), body, done)
        b.position_at_end(body)
        c = b.load(b.gep(digits, [i]), typ=I8)
        b.store(b.or_(b.load(tail, typ=I8), b.zext(b.icmp_unsigned("!=", c, I8(ord("0"))), I8)),
                tail)
        b.store(b.add(i, I64(1)), idx)
        b.branch(head)
        b.position_at_end(done)
        five = b.icmp_unsigned("==", first, I8(ord("5")))
        return b.or_(over, b.and_(five, b.icmp_unsigned("!=", b.load(tail, typ=I8), I8(0))))

    def fmt(self, text):
        names = {"%.60e": "fmt_e60", "%.*e": "fmt_e", "%s1e%lld": "fmt_pow", "-": "fmt_minus",
                 "": "fmt_empty"}
        gv = _cstr(self.mg, "ember.round_n." + names[text], text)
        return self.b.gep(gv, [I32(0), I32(0)])


@emitter("float.is_integer")
def _float_is_integer(g, op):
    """CPython's float.is_integer: finite and equal to its floor."""
    (x,) = args(g, op)
    b = g.b
    finite = b.fcmp_ordered("<", b.call(g.mg.intrinsic("llvm.fabs", F64), [x]),
                            _const(float("inf")))
    whole = b.fcmp_ordered("==", b.call(g.mg.intrinsic("llvm.floor", F64), [x]), x)
    return b.zext(b.and_(finite, whole), I8)


@emitter("math.modf")
def _math_modf(g, op):
    """(fraction, integer part), both with x's sign (C's modf): an infinity's fraction is a
    signed zero, a NaN gives NaNs."""
    (x,) = args(g, op)
    b = g.b
    whole = b.call(g.mg.intrinsic("llvm.trunc", F64), [x])
    inf = b.fcmp_ordered("==", b.call(g.mg.intrinsic("llvm.fabs", F64), [x]), _const(float("inf")))
    frac = b.select(inf, _const(0.0), b.fsub(x, whole))
    frac = b.call(g.mg.intrinsic("llvm.copysign", F64, 2), [frac, x])
    t = ir.LiteralStructType([F64, F64])
    return b.insert_value(b.insert_value(ir.Constant(t, None), frac, 0), whole, 1)


@emitter("math.frexp")
def _math_frexp(g, op):
    """(m, e) with x = m * 2**e, 0.5 <= |m| < 1; CPython gives (x, 0) for a zero, an
    infinity or a NaN."""
    (x,) = args(g, op)
    b = g.b
    e32 = g.alloca_b.alloca(ir.IntType(32))
    b.store(ir.Constant(ir.IntType(32), 0), e32)
    frexp = g.mg.llmod.globals.get("frexp") or ir.Function(
        g.mg.llmod, ir.FunctionType(F64, [F64, ir.PointerType()]), "frexp")
    m = b.call(frexp, [x, e32])
    finite = b.fcmp_ordered("<", b.call(g.mg.intrinsic("llvm.fabs", F64), [x]),
                            _const(float("inf")))
    plain = b.and_(finite, b.fcmp_unordered("une", x, _const(0.0)))
    e = b.select(plain, b.sext(b.load(e32, typ=ir.IntType(32)), I64), I64(0))
    t = ir.LiteralStructType([F64, I64])
    return b.insert_value(b.insert_value(ir.Constant(t, None), b.select(plain, m, x), 0), e, 1)


@emitter("math.ldexp")
def _math_ldexp(g, op):
    """x * 2**i: exact (C's ldexp, the exponent clamped where the result is already 0 or
    inf); OverflowError where a finite x overflows."""
    x, i = args(g, op)
    b = g.b
    lim = 1 << 20
    k = b.select(b.icmp_signed(">", i, I64(lim)), I64(lim),
                 b.select(b.icmp_signed("<", i, I64(-lim)), I64(-lim), i))
    ldexp = g.mg.llmod.globals.get("ldexp") or ir.Function(
        g.mg.llmod, ir.FunctionType(F64, [F64, ir.IntType(32)]), "ldexp")
    r = b.call(ldexp, [x, b.trunc(k, ir.IntType(32))])
    fabs = g.mg.intrinsic("llvm.fabs", F64)
    inf = _const(float("inf"))
    over = b.and_(b.fcmp_ordered("==", b.call(fabs, [r]), inf),
                  b.fcmp_ordered("<", b.call(fabs, [x]), inf))
    fail(g, op, over, [x, i], cls="OverflowError")
    return r
