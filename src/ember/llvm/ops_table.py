"""The one lowering table: kernel op name → the emitter that compiles it natively.

An emitter gets the function generator `g` and the op, and returns the op's native
result (or None for a `none` result). It must compute exactly what the op's `ember.ops`
kernel computes — values, and when it raises. Where the kernel raises, the emitter calls
`fail(g, op, cond, operands)`: the boundary re-runs the kernel on those operands, so the
exception's type and message are the kernel's own. An op missing here keeps its function
on the VM (NotNative names it).
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.codegen import Static
from ember.llvm.layout import F64, I1, I8, I64, NotNative, lltype
from ember.llvm.sites import kernel_arg_kind

EMITTERS: dict = {}

INT64_MIN = -(1 << 63)


def emitter(*names):
    def deco(fn):
        for n in names:
            EMITTERS[n] = fn
        return fn
    return deco


def emit_kernel(g, op) -> None:
    fn = EMITTERS.get(op.name)
    if fn is None:
        raise NotNative(f"operator {op.name}")
    r = fn(g, op)
    g.define(op.result, I8(0) if r is None else r)


def args(g, op) -> list:
    return [g.native(v) for v in op.operands]


def fail(g, op, cond, values=None, kernel: str | None = None, kinds=None,
         cls: str = "") -> None:
    """If cond: raise what kernel (default: op's own) raises on these operands."""
    values = args(g, op) if values is None else values
    if kinds is None:
        kinds = tuple(kernel_arg_kind(v.type) for v in op.operands)
    if any(k is None for k in kinds):
        raise NotNative(f"an error of {op.name} on operands it cannot describe")
    words = []
    for v, k in zip(values, kinds):  # values line up with kinds; constants need no word
        if isinstance(k, tuple) and k[0] == "const":
            continue
        words.append(RT.load_field(g.b, v, RT.LEN) if isinstance(k, tuple) else v)
    site = g.site("kernel", op.loc, op=kernel or op.name, args=tuple(kinds), text=cls)
    g.fail_if(cond, site, words)


SITE_CLASS = {
    "list.getitem": "IndexError", "list.setitem": "IndexError", "list.pop": "IndexError",
    "list.delitem": "IndexError", "list.index": "ValueError", "list.remove": "ValueError",
    "list.check_unpack": "ValueError", "list.check_unpack_star": "ValueError",
    "list.slice": "ValueError",
    "builtins.min_list": "ValueError", "builtins.max_list": "ValueError",
    "int.add": "OverflowError", "int.sub": "OverflowError", "int.mul": "OverflowError",
    "int.neg": "OverflowError", "int.abs": "OverflowError", "int.mod": "ZeroDivisionError",
    "int.floordiv_nowrap": "ZeroDivisionError", "int.rshift": "ValueError",
    "float.truediv": "ZeroDivisionError", "float.floordiv": "ZeroDivisionError",
    "float.mod": "ZeroDivisionError", "math.sqrt": "ValueError",
}
"""The class of the exception a kernel site raises, where one class is certain (emitters
whose op can raise several record a site per class: `fail(..., kernel_class=…)`)."""


def site_class(site) -> str | None:
    if site.kind == "kernel":
        return site.text or SITE_CLASS.get(site.op)
    return {"exc": site.exc[0] if site.exc else None, "narrow": "TypeError",
            "range": "ValueError", "recursion": "RecursionError"}.get(site.kind)


def to_i1(b, v):
    return b.icmp_unsigned("!=", v, I8(0))


def to_i8(b, v):
    return b.zext(v, I8)


# ----------------------------------------------------------------------------- int

_OVF = {"add": "sadd_with_overflow", "sub": "ssub_with_overflow",
        "mul": "smul_with_overflow"}


@emitter("int.add", "int.sub", "int.mul")
def _int_checked(g, op):
    a, b = args(g, op)
    r = getattr(g.b, _OVF[op.name[4:]])(a, b)
    fail(g, op, g.b.extract_value(r, 1), [a, b])
    return g.b.extract_value(r, 0)


@emitter("int.add_nowrap", "int.sub_nowrap", "int.mul_nowrap")
def _int_nowrap(g, op):
    a, b = args(g, op)
    # proven in range by ember's range analysis: `nsw` lets LLVM reason about the result
    # (drop negative-index normalization, fold bounds checks)
    return {"add": g.b.add, "sub": g.b.sub, "mul": g.b.mul}[op.name[4:7]](a, b, flags=["nsw"])


def _floordiv(g, op, a, b, checked: bool):
    bld = g.b
    fail(g, op, bld.icmp_signed("==", b, I64(0)), [a, b], cls="ZeroDivisionError")
    if checked:
        fail(g, op, bld.and_(bld.icmp_signed("==", a, I64(INT64_MIN)),
                             bld.icmp_signed("==", b, I64(-1))), [a, b], cls="OverflowError")
    safe_b = bld.select(bld.icmp_signed("==", b, I64(-1)), I64(1), b)
    neg1 = bld.icmp_signed("==", b, I64(-1))
    q = bld.sdiv(a, safe_b)
    r = bld.srem(a, safe_b)
    adjust = bld.and_(bld.icmp_signed("!=", r, I64(0)),
                      bld.icmp_signed("!=", bld.icmp_signed("<", r, I64(0)),
                                      bld.icmp_signed("<", b, I64(0))))
    q = bld.sub(q, bld.zext(adjust, I64))
    return bld.select(neg1, bld.neg(a), q)


@emitter("int.floordiv")
def _int_floordiv(g, op):
    a, b = args(g, op)
    return _floordiv(g, op, a, b, True)


@emitter("int.floordiv_nowrap")
def _int_floordiv_nowrap(g, op):
    a, b = args(g, op)
    return _floordiv(g, op, a, b, False)


def _int_mod(g, op, a, b):
    bld = g.b
    fail(g, op, bld.icmp_signed("==", b, I64(0)), [a, b], cls="ZeroDivisionError")
    neg1 = bld.icmp_signed("==", b, I64(-1))
    safe_b = bld.select(neg1, I64(1), b)
    r = bld.srem(a, safe_b)
    adjust = bld.and_(bld.icmp_signed("!=", r, I64(0)),
                      bld.icmp_signed("!=", bld.icmp_signed("<", r, I64(0)),
                                      bld.icmp_signed("<", b, I64(0))))
    r = bld.select(adjust, bld.add(r, b), r)
    return bld.select(neg1, I64(0), r)


@emitter("int.mod_natural")
def _int_mod_natural(g, op):
    """a % b with a >= 0 and b >= 1 proven (passes/ranges): the unsigned remainder."""
    a, b = args(g, op)
    return g.b.urem(a, b)


@emitter("int.mod")
def _int_mod_op(g, op):
    a, b = args(g, op)
    return _int_mod(g, op, a, b)


@emitter("int.neg", "int.abs")
def _int_neg_abs(g, op):
    (a,) = args(g, op)
    fail(g, op, g.b.icmp_signed("==", a, I64(INT64_MIN)), [a])
    neg = g.b.neg(a)
    if op.name == "int.neg":
        return neg
    return g.b.select(g.b.icmp_signed("<", a, I64(0)), neg, a)


@emitter("int.neg_nowrap", "int.abs_nowrap")
def _int_neg_abs_nowrap(g, op):
    (a,) = args(g, op)
    neg = g.b.neg(a)
    if op.name == "int.neg_nowrap":
        return neg
    return g.b.select(g.b.icmp_signed("<", a, I64(0)), neg, a)


@emitter("int.pos", "int.from_int", "float.from_float", "bool.from_bool", "float.pos",
         "int.round")
def _identity(g, op):
    return args(g, op)[0]


@emitter("int.invert")
def _int_invert(g, op):
    return g.b.not_(args(g, op)[0])


@emitter("int.and", "int.or", "int.xor", "bool.and", "bool.or", "bool.xor")
def _bitwise(g, op):
    a, b = args(g, op)
    return {"and": g.b.and_, "or": g.b.or_, "xor": g.b.xor}[op.name.split(".")[1]](a, b)


@emitter("int.lshift")
def _int_lshift(g, op):
    a, n = args(g, op)
    b = g.b
    neg = b.icmp_signed("<", n, I64(0))
    big = b.icmp_signed(">=", n, I64(64))
    safe_n = b.select(b.or_(neg, big), I64(0), n)
    r = b.shl(a, safe_n)
    lost = b.icmp_signed("!=", b.ashr(r, safe_n), a)
    nonzero = b.icmp_signed("!=", a, I64(0))
    fail(g, op, neg, [a, n], cls="ValueError")
    fail(g, op, b.and_(nonzero, b.or_(big, lost)), [a, n], cls="OverflowError")
    return b.select(nonzero, r, I64(0))


@emitter("int.rshift")
def _int_rshift(g, op):
    a, n = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("<", n, I64(0)), [a, n])
    big = b.icmp_signed(">=", n, I64(64))
    r = b.ashr(a, b.select(big, I64(63), n))
    return r


@emitter("int.pow")
def _int_pow(g, op):
    a, n = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("<", n, I64(0)), [a, n], cls="ValueError")
    result, base, exp, ovf = (g.slot(T.I64) for _ in range(4))
    b.store(I64(1), result)
    b.store(a, base)
    b.store(n, exp)
    b.store(I64(0), ovf)
    head, body, done = (b.append_basic_block(x) for x in ("pow.head", "pow.body", "pow.done"))
    b.branch(head)
    b.position_at_end(head)
    e = b.load(exp, typ=I64)
    b.cbranch(b.icmp_signed(">", e, I64(0)), body, done)
    b.position_at_end(body)
    r, x = b.load(result, typ=I64), b.load(base, typ=I64)
    odd = b.icmp_signed("!=", b.and_(e, I64(1)), I64(0))
    m = b.smul_with_overflow(r, x)
    b.store(b.select(odd, b.extract_value(m, 0), r), result)
    o1 = b.and_(odd, b.extract_value(m, 1))
    e2 = b.ashr(e, I64(1))
    sq = b.smul_with_overflow(x, x)
    o2 = b.and_(b.icmp_signed(">", e2, I64(0)), b.extract_value(sq, 1))
    prev = b.load(ovf, typ=I64)
    b.store(b.or_(prev, b.zext(b.or_(o1, o2), I64)), ovf)
    b.store(b.extract_value(sq, 0), base)
    b.store(e2, exp)
    # once overflowed, stop: the kernel reports it
    b.cbranch(b.or_(o1, o2), done, head)
    b.position_at_end(done)
    fail(g, op, b.icmp_signed("!=", b.load(ovf, typ=I64), I64(0)), [a, n], cls="OverflowError")
    return b.load(result, typ=I64)


# ----------------------------------------------------------------------------- comparisons

_ICMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@emitter(*[f"int.{n}" for n in _ICMP], *[f"bool.{n}" for n in ("eq", "ne")])
def _int_cmp(g, op):
    a, b = args(g, op)
    return to_i8(g.b, g.b.icmp_signed(_ICMP[op.name.split(".")[1]], a, b))


@emitter(*[f"float.{n}" for n in _ICMP])
def _float_cmp(g, op):
    a, b = args(g, op)
    pred = _ICMP[op.name.split(".")[1]]
    c = g.b.fcmp_unordered("!=", a, b) if pred == "!=" else g.b.fcmp_ordered(pred, a, b)
    return to_i8(g.b, c)


# ----------------------------------------------------------------------------- float

@emitter("float.add", "float.sub", "float.mul")
def _float_arith(g, op):
    a, b = args(g, op)
    return {"add": g.b.fadd, "sub": g.b.fsub, "mul": g.b.fmul}[op.name[6:]](a, b)


@emitter("float.truediv")
def _float_truediv(g, op):
    a, b = args(g, op)
    fail(g, op, g.b.fcmp_ordered("==", b, ir.Constant(F64, 0.0)), [a, b])
    return g.b.fdiv(a, b)


@emitter("float.neg")
def _float_neg(g, op):
    return g.b.fneg(args(g, op)[0])


@emitter("float.abs", "math.fabs")
def _float_abs(g, op):
    return g.b.call(g.mg.intrinsic("llvm.fabs", F64), args(g, op))


def _float_divmod(g, op, a, w):
    """CPython's float_divmod: (floor quotient, modulo) of a by w (w != 0)."""
    b = g.b
    zero = ir.Constant(F64, 0.0)
    fmod = b.frem(a, w)
    div = b.fdiv(b.fsub(a, fmod), w)
    nonzero = b.fcmp_unordered("!=", fmod, zero)
    flip = b.and_(nonzero, b.icmp_unsigned("!=", b.fcmp_ordered("<", w, zero),
                                           b.fcmp_ordered("<", fmod, zero)))
    mod = b.select(flip, b.fadd(fmod, w), fmod)
    div = b.select(flip, b.fsub(div, ir.Constant(F64, 1.0)), div)
    copysign = g.mg.intrinsic("llvm.copysign", F64, 2)
    mod = b.select(nonzero, mod, b.call(copysign, [zero, w]))
    floor = b.call(g.mg.intrinsic("llvm.floor", F64), [div])
    up = b.fcmp_ordered(">", b.fsub(div, floor), ir.Constant(F64, 0.5))
    floordiv = b.select(up, b.fadd(floor, ir.Constant(F64, 1.0)), floor)
    divnz = b.fcmp_unordered("!=", div, zero)
    floordiv = b.select(divnz, floordiv, b.call(copysign, [zero, b.fdiv(a, w)]))
    return floordiv, mod


@emitter("float.floordiv", "float.mod")
def _float_floordiv_mod(g, op):
    a, w = args(g, op)
    fail(g, op, g.b.fcmp_ordered("==", w, ir.Constant(F64, 0.0)), [a, w])
    q, m = _float_divmod(g, op, a, w)
    return q if op.name == "float.floordiv" else m


@emitter("float.pow", "math.pow")
def _float_pow(g, op):
    a, w = args(g, op)
    b = g.b
    zero = ir.Constant(F64, 0.0)
    r = b.call(g.mg.libm("pow", 2), [a, w])
    fin_a, fin_w = _isfinite(g, a), _isfinite(g, w)
    # the kernel raises: 0 ** negative, negative ** fractional, finite ** finite -> inf
    zero_neg = b.and_(b.fcmp_ordered("==", a, zero), b.fcmp_ordered("<", w, zero))
    frac = b.fcmp_unordered("!=", b.call(g.mg.intrinsic("llvm.floor", F64), [w]), w)
    neg_frac = b.and_(b.and_(b.fcmp_ordered("<", a, zero), frac), fin_w)
    ovf = b.and_(b.and_(fin_a, fin_w), b.not_(_isfinite(g, r)))
    fail(g, op, zero_neg, [a, w], cls="ZeroDivisionError")
    fail(g, op, neg_frac, [a, w], cls="ValueError")
    fail(g, op, ovf, [a, w], cls="OverflowError")
    return r


def _isfinite(g, x):
    inf = ir.Constant(F64, float("inf"))
    return g.b.fcmp_ordered("<", g.b.call(g.mg.intrinsic("llvm.fabs", F64), [x]), inf)


def _isnan(g, x):
    return g.b.fcmp_unordered("uno", x, x)


# ----------------------------------------------------------------------------- conversions

@emitter("int.to_float")
def _int_to_float(g, op):
    return g.b.sitofp(args(g, op)[0], F64)


@emitter("bool.to_float")
def _bool_to_float(g, op):
    return g.b.uitofp(args(g, op)[0], F64)


@emitter("bool.to_int")
def _bool_to_int(g, op):
    return g.b.zext(args(g, op)[0], I64)


@emitter("int.to_bool")
def _int_to_bool(g, op):
    return to_i8(g.b, g.b.icmp_signed("!=", args(g, op)[0], I64(0)))


@emitter("float.to_bool")
def _float_to_bool(g, op):
    return to_i8(g.b, g.b.fcmp_unordered("!=", args(g, op)[0], ir.Constant(F64, 0.0)))


def _to_int_checked(g, op, x):
    """int(x) of a float already rounded toward its integer (trunc/floor/ceil)."""
    b = g.b
    lo, hi = ir.Constant(F64, -9223372036854775808.0), ir.Constant(F64, 9223372036854775808.0)
    ok = b.and_(b.fcmp_ordered(">=", x, lo), b.fcmp_ordered("<", x, hi))
    return ok


@emitter("float.to_int")
def _float_to_int(g, op):
    (x,) = args(g, op)
    fail(g, op, _isnan(g, x), [x], cls="ValueError")
    ok = _to_int_checked(g, op, g.b.call(g.mg.intrinsic("llvm.trunc", F64), [x]))
    fail(g, op, g.b.not_(ok), [x], cls="OverflowError")
    return g.b.fptosi(x, I64)


@emitter("math.floor", "math.ceil", "math.trunc")
def _math_round_int(g, op):
    (x,) = args(g, op)
    r = g.b.call(g.mg.intrinsic("llvm." + op.name[5:], F64), [x])
    fail(g, op, _isnan(g, x), [x], cls="ValueError")
    fail(g, op, g.b.not_(_to_int_checked(g, op, r)), [x], cls="OverflowError")
    return g.b.fptosi(r, I64)


@emitter("math.floor_int", "math.ceil_int", "math.trunc_int")
def _math_round_int_int(g, op):
    return args(g, op)[0]


@emitter("bool.not")
def _bool_not(g, op):
    return g.b.xor(args(g, op)[0], I8(1))


# ----------------------------------------------------------------------------- math

_LIBM1 = ["exp", "expm1", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
          "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


@emitter(*[f"math.{n}" for n in _LIBM1])
def _math_libm(g, op):
    """CPython's math_1: libm's result, and an error where a finite x gives inf (overflow
    or a pole) or a non-NaN x gives NaN (domain)."""
    (x,) = args(g, op)
    b = g.b
    r = b.call(g.mg.libm(op.name[5:], 1), [x])
    fail(g, op, b.and_(_isnan(g, r), b.not_(_isnan(g, x))), [x], cls="ValueError")
    fail(g, op, b.and_(b.not_(_isfinite(g, r)), _isfinite(g, x)), [x],
         cls="OverflowError" if op.name[5:] in _CAN_OVERFLOW else "ValueError")
    return r


_CAN_OVERFLOW = {"exp", "expm1", "sinh", "cosh"}
"""CPython's math_1(..., can_overflow=1): an infinite result is a range error; for the
others it is a pole (ValueError)."""


@emitter("math.sqrt")
def _math_sqrt(g, op):
    (x,) = args(g, op)
    fail(g, op, g.b.fcmp_ordered("<", x, ir.Constant(F64, 0.0)), [x])
    return g.b.call(g.mg.intrinsic("llvm.sqrt", F64), [x])


@emitter("math.isnan")
def _math_isnan(g, op):
    return to_i8(g.b, _isnan(g, args(g, op)[0]))


@emitter("math.isfinite")
def _math_isfinite(g, op):
    return to_i8(g.b, _isfinite(g, args(g, op)[0]))


@emitter("math.isinf")
def _math_isinf(g, op):
    (x,) = args(g, op)
    absx = g.b.call(g.mg.intrinsic("llvm.fabs", F64), [x])
    return to_i8(g.b, g.b.fcmp_ordered("==", absx, ir.Constant(F64, float("inf"))))


@emitter("math.copysign")
def _math_copysign(g, op):
    return g.b.call(g.mg.intrinsic("llvm.copysign", F64, 2), args(g, op))


# ----------------------------------------------------------------------------- min / max

@emitter("builtins.min2", "builtins.max2")
def _minmax2(g, op):
    a, b = args(g, op)
    t = op.operands[0].type
    if t != op.operands[1].type or t not in (T.I64, T.F64):
        raise NotNative(f"{op.name} of {t}")
    pred = "<" if op.name.endswith("min2") else ">"
    c = g.b.icmp_signed(pred, b, a) if t == T.I64 else g.b.fcmp_ordered(pred, b, a)
    return g.b.select(c, b, a)


# ----------------------------------------------------------------------------- none / optional

@emitter("obj.is", "obj.isnot")
def _obj_is(g, op):
    a, b = op.operands
    if b.type == T.NONE and isinstance(a.type, T.OptionalType):
        present = g.b.extract_value(g.native(a), 0)
    elif a.type == T.NONE and isinstance(b.type, T.OptionalType):
        present = g.b.extract_value(g.native(b), 0)
    elif a.type == T.NONE and b.type == T.NONE:
        present = I8(0)
    elif T.NONE in (a.type, b.type):
        present = I8(1)  # a value of a non-optional type is never None
    elif isinstance(a.type, T.ClassType) and a.type == b.type:
        same = g.b.icmp_unsigned("==", g.native(a), g.native(b))
        return to_i8(g.b, same if op.name == "obj.is" else g.b.not_(same))
    else:
        raise NotNative(f"{op.name} of {a.type} and {b.type}")
    return present if op.name == "obj.isnot" else g.b.xor(present, I8(1))


# ----------------------------------------------------------------------------- exceptions

@emitter("exc.new")
def _exc_new(g, op):
    kind, msg = (g.get(v) for v in op.operands)
    if not isinstance(kind, Static):
        raise NotNative("an exception class that is not a constant")
    if isinstance(msg, Static) and msg.kind == "none":
        text = None
    elif isinstance(msg, Static):
        text = msg.value  # (a str constant, or ops_dstr.Deferred: computed at the raise)
    elif op.operands[1].type == T.NONE or _is_none_const(op.operands[1]):
        text = None
    else:
        raise NotNative("an exception message that is not a constant string")
    return Static("exc", (kind.value, text))


@emitter("exc.set_cause")
def _exc_set_cause(g, op):
    """raise E from None / from a constant exception: the raise site records the cause
    ((class, message) of E, then the cause's, None for `from None`)."""
    e, cause = (g.get(v) for v in op.operands)
    if not (isinstance(e, Static) and e.kind == "exc" and len(e.value) == 2):
        raise NotNative("raise … from of an exception value not built from constants")
    if isinstance(cause, Static) and cause.kind == "none":
        return Static("exc", e.value + (None, None))
    if isinstance(cause, Static) and cause.kind == "exc" and len(cause.value) == 2 \
            and not isinstance(cause.value[1], (ops_dstr.Deferred, ops_dstr.Argument)):
        return Static("exc", e.value + cause.value)
    raise NotNative("raise … from a caught or computed exception")


def _is_none_const(v):
    from ember.ir.ops import ConstOp, WidenOp
    owner = getattr(v, "op", None)
    if isinstance(owner, WidenOp):
        return _is_none_const(owner.operands[0])
    return isinstance(owner, ConstOp) and owner.attrs.get("value") is None


def store_elem(g, lst, i, v, elem):
    g.b.store(v, RT.elem_ptr(g.b, lst, i, elem))


def load_elem(g, lst, i, elem):
    return g.b.load(RT.elem_ptr(g.b, lst, i, elem), typ=lltype(elem))


from ember.llvm import ops_dict, ops_dstr, ops_intmath, ops_iter, ops_list, ops_math, ops_more, ops_set  # noqa: E402,F401  (their emitters)

__all__ = ["EMITTERS", "emit_kernel", "emitter", "fail", "store_elem", "load_elem", "I1"]
