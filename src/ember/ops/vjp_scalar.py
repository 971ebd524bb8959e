"""Derivative rules of the scalar float operators (see registry.VJP).

Each rule gets the emitter `e`, the operands, the result and its adjoint `g`, and
returns one adjoint per operand, built from other operators so that it can be
differentiated again. An int operand (float.eq_int's) gets None."""

from __future__ import annotations

from ember.ops.registry import nondiff, vjp


def _f(e, name, *a):
    return e.op(name, *a)


def mul(e, a, b):
    return _f(e, "float.mul", a, b)


def div(e, a, b):
    return _f(e, "float.truediv", a, b)


def neg(e, a):
    return _f(e, "float.neg", a)


@vjp("float.add")
def _add(e, args, out, g):
    return [g, g]


@vjp("float.sub")
def _sub(e, args, out, g):
    return [g, neg(e, g)]


@vjp("float.mul")
def _mul(e, args, out, g):
    a, b = args
    return [mul(e, g, b), mul(e, g, a)]


@vjp("float.truediv")
def _truediv(e, args, out, g):
    a, b = args
    ga = div(e, g, b)
    return [ga, neg(e, mul(e, ga, div(e, a, b)))]


@vjp("float.neg")
def _neg(e, args, out, g):
    return [neg(e, g)]


@vjp("float.pos")
def _pos(e, args, out, g):
    return [g]


@vjp("float.abs", "math.fabs")
def _abs(e, args, out, g):
    return [mul(e, g, _f(e, "grad.sign", args[0]))]


@vjp("float.pow", "math.pow")
def _pow(e, args, out, g):
    a, b = args
    ga = mul(e, g, mul(e, b, _f(e, "float.pow", a, _f(e, "float.sub", b, 1.0))))
    gb = mul(e, g, mul(e, out, _f(e, "grad.log_or_zero", a)))
    return [ga, gb]


@vjp("math.exp")
def _exp(e, args, out, g):
    return [mul(e, g, out)]


@vjp("math.expm1")
def _expm1(e, args, out, g):
    return [mul(e, g, _f(e, "float.add", out, 1.0))]


@vjp("math.log")
def _log(e, args, out, g):
    return [div(e, g, args[0])]


@vjp("math.log1p")
def _log1p(e, args, out, g):
    return [div(e, g, _f(e, "float.add", args[0], 1.0))]


@vjp("math.log2")
def _log2(e, args, out, g):
    return [div(e, g, mul(e, args[0], 0.6931471805599453))]


@vjp("math.log10")
def _log10(e, args, out, g):
    return [div(e, g, mul(e, args[0], 2.302585092994046))]


@vjp("math.sqrt")
def _sqrt(e, args, out, g):
    return [div(e, g, mul(e, out, 2.0))]


@vjp("math.sin")
def _sin(e, args, out, g):
    return [mul(e, g, _f(e, "math.cos", args[0]))]


@vjp("math.cos")
def _cos(e, args, out, g):
    return [neg(e, mul(e, g, _f(e, "math.sin", args[0])))]


@vjp("math.tan")
def _tan(e, args, out, g):
    return [mul(e, g, _f(e, "float.add", mul(e, out, out), 1.0))]


@vjp("math.tanh")
def _tanh(e, args, out, g):
    return [mul(e, g, _f(e, "float.sub", 1.0, mul(e, out, out)))]


@vjp("math.sinh")
def _sinh(e, args, out, g):
    return [mul(e, g, _f(e, "math.cosh", args[0]))]


@vjp("math.cosh")
def _cosh(e, args, out, g):
    return [mul(e, g, _f(e, "math.sinh", args[0]))]


def _one_minus_sq(e, x):
    return _f(e, "float.sub", 1.0, mul(e, x, x))


@vjp("math.asin")
def _asin(e, args, out, g):
    return [div(e, g, _f(e, "math.sqrt", _one_minus_sq(e, args[0])))]


@vjp("math.acos")
def _acos(e, args, out, g):
    return [neg(e, div(e, g, _f(e, "math.sqrt", _one_minus_sq(e, args[0]))))]


@vjp("math.atan")
def _atan(e, args, out, g):
    x = args[0]
    return [div(e, g, _f(e, "float.add", mul(e, x, x), 1.0))]


@vjp("math.asinh")
def _asinh(e, args, out, g):
    x = args[0]
    return [div(e, g, _f(e, "math.sqrt", _f(e, "float.add", mul(e, x, x), 1.0)))]


@vjp("math.atanh")
def _atanh(e, args, out, g):
    return [div(e, g, _one_minus_sq(e, args[0]))]


@vjp("math.erf")
def _erf(e, args, out, g):
    x = args[0]
    d = mul(e, _f(e, "math.exp", neg(e, mul(e, x, x))), 1.1283791670955126)
    return [mul(e, g, d)]


@vjp("math.erfc")
def _erfc(e, args, out, g):
    x = args[0]
    d = mul(e, _f(e, "math.exp", neg(e, mul(e, x, x))), -1.1283791670955126)
    return [mul(e, g, d)]


@vjp("math.atan2")
def _atan2(e, args, out, g):
    y, x = args
    den = _f(e, "float.add", mul(e, x, x), mul(e, y, y))
    return [mul(e, g, div(e, x, den)), neg(e, mul(e, g, div(e, y, den)))]


@vjp("math.hypot")
def _hypot(e, args, out, g):
    """a / hypot and b / hypot, 0 at (0, 0) (as abs: no ZeroDivisionError there)."""
    a, b = args
    inv = _f(e, "grad.inv_or_zero", out)
    return [mul(e, g, mul(e, a, inv)), mul(e, g, mul(e, b, inv))]


@vjp("float.from_float")
def _from_float(e, args, out, g):
    return [g]


nondiff(
    "float.eq", "float.eq_int", "float.ne", "float.ne_int", "float.lt", "float.lt_int",
    "float.le", "float.le_int", "float.gt", "float.gt_int", "float.ge", "float.ge_int",
    "float.to_int", "float.to_bool", "float.to_str", "float.floordiv", "float.divmod",
    "float.round", "float.round_n", "math.floor", "math.floor_int", "math.ceil",
    "math.ceil_int", "math.trunc", "math.trunc_int", "math.isnan", "math.isinf",
    "math.isfinite", "math.isclose", "int.to_float", "grad.sign",
)
