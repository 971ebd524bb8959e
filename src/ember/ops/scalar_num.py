"""int, float and bool operators: arithmetic, bitwise, comparisons, conversions.

Each kernel is CPython's own operator (so results, floor semantics and error
messages are CPython's), plus int64 overflow checks on int results.
"""

from __future__ import annotations

import math
import operator

from ember.ops import int64
from ember.ops.int64 import INT64_MAX, INT64_MIN, check, int_lshift, int_pow
from ember.ops.registry import OpDef, register


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, **flags))


# ----------------------------------------------------------------------------- int


def _checked(fn, symbol):
    def kernel(a, b):
        return check(fn(a, b), symbol, a, b)
    kernel.__name__ = f"int_{fn.__name__}"
    return kernel


def _int_floordiv(a, b):
    return check(a // b, "//", a, b)


_INT_BIN = [
    ("add", "+", _checked(operator.add, "+"), {"commutative": True}),
    ("sub", "-", _checked(operator.sub, "-"), {}),
    ("mul", "*", _checked(operator.mul, "*"), {"commutative": True}),
    ("floordiv", "//", _int_floordiv, {"may_raise": True}),
    ("mod", "%", operator.mod, {"may_raise": True}),
    ("pow", "**", int_pow, {"may_raise": True}),
    ("lshift", "<<", int_lshift, {"may_raise": True}),
    ("rshift", ">>", operator.rshift, {"may_raise": True}),
    ("and", "&", operator.and_, {"commutative": True}),
    ("or", "|", operator.or_, {"commutative": True}),
    ("xor", "^", operator.xor, {"commutative": True}),
]
for _n, _sym, _k, _f in _INT_BIN:
    _f = dict(_f)
    if _n in ("add", "sub", "mul"):
        _f["may_raise"] = True
    _reg(f"int.{_n}", "(int a, int b) -> int", _k, (f"int.__{_n}__",), **_f)

_reg("int.truediv", "(int a, int b) -> float", operator.truediv, ("int.__truediv__",),
     may_raise=True)
_reg("int.neg", "(int a) -> int", lambda a: check(-a, "-", a), ("int.__neg__",), may_raise=True)
_reg("int.pos", "(int a) -> int", lambda a: a, ("int.__pos__",))
_reg("int.abs", "(int a) -> int", lambda a: check(abs(a), "abs", a), ("builtins.abs",),
     may_raise=True)
_reg("int.invert", "(int a) -> int", operator.invert, ("int.__invert__",))


# The compiler's twins of the checked operators, without the int64 check: passes/ranges
# emits one only where it proved that the exact result is an int64, so the check could
# never fire. Never chosen for Python source (no python names).
_NOWRAP_DOC = ("{} without the int64 overflow check: the compiler proved that the exact "
               "result fits in int64.")
for _n, _k, _f in [("add", operator.add, {"commutative": True}), ("sub", operator.sub, {}),
                   ("mul", operator.mul, {"commutative": True}),
                   ("floordiv", operator.floordiv, {"may_raise": True})]:
    register(OpDef(f"int.{_n}_nowrap", f"int.{_n}_nowrap(int a, int b) -> int", _k,
                   doc=_NOWRAP_DOC.format(f"int.{_n}"), **_f))
register(OpDef("int.neg_nowrap", "int.neg_nowrap(int a) -> int", operator.neg,
               doc=_NOWRAP_DOC.format("int.neg")))
register(OpDef("int.abs_nowrap", "int.abs_nowrap(int a) -> int", abs,
               doc=_NOWRAP_DOC.format("int.abs")))
register(OpDef("int.mod_natural", "int.mod_natural(int a, int b) -> int", operator.mod,
               doc="int.mod where the compiler proved a >= 0 and b >= 1 (passes/ranges): "
                   "the C remainder is Python's, with no sign fix-up and no zero check."))


def _int_divmod(a, b):
    return (check(a // b, "//", a, b), a % b)


_reg("int.divmod", "(int a, int b) -> Tuple[int, int]", _int_divmod, ("builtins.divmod",),
     may_raise=True)

# ----------------------------------------------------------------------------- comparisons

_CMP = [("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
        ("gt", operator.gt), ("ge", operator.ge)]
for _n, _k in _CMP:
    comm = _n in ("eq", "ne")
    _reg(f"int.{_n}", "(int a, int b) -> bool", _k, (f"int.__{_n}__",), commutative=comm)
    _reg(f"float.{_n}", "(float a, float b) -> bool", _k, (f"float.__{_n}__",),
         commutative=comm)
    # Mixed comparisons are exact in Python (no rounding of the int): keep them exact.
    _reg(f"int.{_n}_float", "(int a, float b) -> bool", _k, (f"int.__{_n}__",))
    _reg(f"float.{_n}_int", "(float a, int b) -> bool", _k, (f"float.__{_n}__",))
    _reg(f"str.{_n}", "(str a, str b) -> bool", _k, (f"str.__{_n}__",), commutative=comm)
for _n, _k in _CMP[:2]:
    _reg(f"bool.{_n}", "(bool a, bool b) -> bool", _k, (f"bool.__{_n}__",), commutative=True)

# ----------------------------------------------------------------------------- float


def _float_pow(a, b):
    if a < 0 and b != math.floor(b) and math.isfinite(b):
        raise ValueError("negative number cannot be raised to a fractional power "
                         "(the result would be complex)")
    return a ** b


_FLOAT_BIN = [
    ("add", operator.add, {"commutative": True}), ("sub", operator.sub, {}),
    ("mul", operator.mul, {"commutative": True}),
    ("truediv", operator.truediv, {"may_raise": True}),
    ("floordiv", operator.floordiv, {"may_raise": True}),
    ("mod", operator.mod, {"may_raise": True}),
    ("pow", _float_pow, {"may_raise": True}),
]
for _n, _k, _f in _FLOAT_BIN:
    _reg(f"float.{_n}", "(float a, float b) -> float", _k, (f"float.__{_n}__",), **_f)
_reg("float.neg", "(float a) -> float", operator.neg, ("float.__neg__",))
_reg("float.pos", "(float a) -> float", operator.pos, ("float.__pos__",))
_reg("float.abs", "(float a) -> float", abs, ("builtins.abs",))
_reg("float.divmod", "(float a, float b) -> Tuple[float, float]", divmod, ("builtins.divmod",),
     may_raise=True)

# ----------------------------------------------------------------------------- bool

_reg("bool.not", "(bool a) -> bool", operator.not_, ("bool.__not__",))
_reg("bool.and", "(bool a, bool b) -> bool", operator.and_, ("bool.__and__",), commutative=True)
_reg("bool.or", "(bool a, bool b) -> bool", operator.or_, ("bool.__or__",), commutative=True)
_reg("bool.xor", "(bool a, bool b) -> bool", operator.xor, ("bool.__xor__",), commutative=True)

# ----------------------------------------------------------------------------- conversions


def _float_to_int(x):
    r = int(x)  # CPython's errors for NaN and infinities
    if INT64_MIN <= r <= INT64_MAX:
        return r
    raise int64.overflow_error("int", x, None)


def _str_to_int(s, base=10):
    return check(int(s, base), "int", repr(s), None) if base != 10 else \
        check(int(s), "int", repr(s), None)


def _round_float(x):
    r = round(x)  # CPython's errors for NaN and infinities
    if INT64_MIN <= r <= INT64_MAX:
        return r
    raise int64.overflow_error("round", x, None)


def _round_int_n(x, n):
    return check(round(x, n), "round", x, n)


_reg("int.to_float", "(int a) -> float", float, ("builtins.float",))
_reg("int.to_bool", "(int a) -> bool", bool, ("builtins.bool",))
_reg("int.to_str", "(int a) -> str", str, ())
_reg("float.to_int", "(float a) -> int", _float_to_int, ("builtins.int",), may_raise=True)
_reg("float.to_bool", "(float a) -> bool", bool, ("builtins.bool",))
_reg("float.to_str", "(float a) -> str", str, ())
_reg("bool.to_int", "(bool a) -> int", int, ("builtins.int",))
_reg("bool.to_float", "(bool a) -> float", float, ("builtins.float",))
_reg("bool.to_str", "(bool a) -> str", str, ())
_reg("int.from_int", "(int a) -> int", lambda a: a, ("builtins.int",))
_reg("float.from_float", "(float a) -> float", lambda a: a, ("builtins.float",))
_reg("bool.from_bool", "(bool a) -> bool", lambda a: a, ("builtins.bool",))
_reg("str.to_int", "(str s, int base=10) -> int", _str_to_int, ("builtins.int",),
     may_raise=True)
_reg("str.to_float", "(str s) -> float", float, ("builtins.float",), may_raise=True)
# Python's parameter names (round(x, ndigits=1)); the int overloads first, so that an int
# argument keeps its type (round(7, -1) is an int, as in Python).
_reg("int.round", "(int number) -> int", round, ("builtins.round",))
_reg("int.round_n", "(int number, int ndigits) -> int", _round_int_n, ("builtins.round",),
     may_raise=True)
_reg("float.round", "(float number) -> int", _round_float, ("builtins.round",),
     may_raise=True)
_reg("float.round_n", "(float number, int ndigits) -> float", round, ("builtins.round",))

_reg("int.or_default", "(int? value, int default) -> int",
     lambda value, default: default if value is None else value,
     doc="value, or default when value is None (an Optional[int] slice bound: x[a:b]).")

# ----------------------------------------------------------------------------- int/float methods


def _ratio(x):
    n, d = x.as_integer_ratio()  # ValueError for nan, OverflowError for an infinity
    return check(n, "as_integer_ratio", x), check(d, "as_integer_ratio", x)


_reg("int.bit_length", "(int self) -> int", int.bit_length, ("int.bit_length",))
_reg("int.bit_count", "(int self) -> int", lambda a: bin(a).count("1"), ("int.bit_count",))
_reg("int.as_integer_ratio", "(int self) -> Tuple[int, int]", lambda a: (a, 1),
     ("int.as_integer_ratio",))
_reg("int.is_integer", "(int self) -> bool", lambda a: True, ("int.is_integer",))
_reg("float.as_integer_ratio", "(float self) -> Tuple[int, int]", _ratio,
     ("float.as_integer_ratio",), may_raise=True)
_reg("float.hex", "(float self) -> str", float.hex, ("float.hex",))
