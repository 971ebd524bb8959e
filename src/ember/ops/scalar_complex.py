"""complex operators and the cmath module: CPython's own operators and functions.

Each kernel is the Python operator or cmath function itself, so results, signed zeros,
infinities and error messages ("complex division by zero", "0.0 to a negative or complex
power", cmath's "math domain error") are CPython's. Mixed operands keep their own types
(`complex.add_float`, `float.add_complex`): CPython versions differ in how they mix a real
with a complex (3.14 follows C99 Annex G), and calling the operator on the original
operands gives whatever the running CPython gives. An int operand reaches these as a
float: CPython converts it the same way (to the nearest double) before mixing.
"""

from __future__ import annotations

import cmath
import operator

from ember.ops.registry import OpDef, register


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, **flags))


# ----------------------------------------------------------------------------- arithmetic

_BIN = [("add", operator.add, True, False), ("sub", operator.sub, False, False),
        ("mul", operator.mul, True, False), ("truediv", operator.truediv, False, True),
        ("pow", operator.pow, False, True)]
for _n, _k, _comm, _raises in _BIN:
    # pow may overflow ("complex exponentiation"); add/mul never raise (inf results).
    _raises = _raises or _n == "pow"
    _reg(f"complex.{_n}", "(complex a, complex b) -> complex", _k, (f"complex.__{_n}__",),
         commutative=_comm, may_raise=_raises)
    _reg(f"complex.{_n}_float", "(complex a, float b) -> complex", _k, (f"complex.__{_n}__",),
         may_raise=_raises)
    _reg(f"float.{_n}_complex", "(float a, complex b) -> complex", _k,
         (f"float.__{_n}__",), may_raise=_raises)

_reg("complex.neg", "(complex a) -> complex", operator.neg, ("complex.__neg__",))
_reg("complex.pos", "(complex a) -> complex", operator.pos, ("complex.__pos__",))
_reg("complex.abs", "(complex a) -> float", abs, ("builtins.abs",), may_raise=True)

# ----------------------------------------------------------------------------- comparisons

# Only == and != (complex numbers are not ordered). Mixed comparisons are exact in Python
# (an int is not rounded to a float first): keep them exact.
for _n, _k in (("eq", operator.eq), ("ne", operator.ne)):
    _reg(f"complex.{_n}", "(complex a, complex b) -> bool", _k, (f"complex.__{_n}__",),
         commutative=True)
    _reg(f"complex.{_n}_float", "(complex a, float b) -> bool", _k, (f"complex.__{_n}__",))
    _reg(f"complex.{_n}_int", "(complex a, int b) -> bool", _k, (f"complex.__{_n}__",))

# ----------------------------------------------------------------------------- attributes


def _real(z):
    return z.real


def _imag(z):
    return z.imag


def _conjugate(z):
    return z.conjugate()


_reg("complex.real", "(complex self) -> float", _real, ())
_reg("complex.imag", "(complex self) -> float", _imag, ())
_reg("complex.conjugate", "(complex self) -> complex", _conjugate, ("complex.conjugate",))
# Python's real numbers have the same three (x.real is x, x.imag is 0).
for _t in ("int", "float"):
    _reg(f"{_t}.real", f"({_t} self) -> {_t}", _real, ())
    _reg(f"{_t}.imag", f"({_t} self) -> {_t}", _imag, ())
    _reg(f"{_t}.conjugate", f"({_t} self) -> {_t}", _conjugate, (f"{_t}.conjugate",))

# ----------------------------------------------------------------------------- conversions

_reg("int.to_complex", "(int a) -> complex", complex, ("builtins.complex",))
_reg("float.to_complex", "(float a) -> complex", complex, ("builtins.complex",))
_reg("bool.to_complex", "(bool a) -> complex", complex, ("builtins.complex",))
_reg("complex.from_complex", "(complex a) -> complex", lambda a: a, ("builtins.complex",))
# complex(real, imag): CPython's own constructor, so a complex part mixes in as CPython
# mixes it (complex(1j, 1j) is (-1+1j)); the all-float overload first.
_reg("complex.new", "(float real, float imag) -> complex", complex, ("builtins.complex",))
_reg("complex.new_cf", "(complex real, float imag) -> complex", complex, ("builtins.complex",))
_reg("complex.new_fc", "(float real, complex imag) -> complex", complex, ("builtins.complex",))
_reg("complex.new_cc", "(complex real, complex imag) -> complex", complex,
     ("builtins.complex",))
_reg("str.to_complex", "(str s) -> complex", complex, ("builtins.complex",), may_raise=True)
_reg("complex.to_bool", "(complex a) -> bool", bool, ("builtins.bool",))


def _sum(xs):
    return sum(xs) if xs else 0j  # the running CPython's sum; an empty sum is complex too


_reg("builtins.sum_complex", "(List[complex] xs) -> complex", _sum, ("builtins.sum",),
     pure=False)

# ----------------------------------------------------------------------------- cmath

_CMATH1 = ["sqrt", "exp", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
           "cosh", "tanh", "asinh", "acosh", "atanh"]
for _n in _CMATH1:
    _reg(f"cmath.{_n}", "(complex z) -> complex", getattr(cmath, _n), (f"cmath.{_n}",),
         may_raise=True)


def _log(z, base):
    return cmath.log(z) if base is None else cmath.log(z, base)


def _polar(z):
    return cmath.polar(z)


_reg("cmath.log", "(complex z, complex? base=None) -> complex", _log, ("cmath.log",),
     may_raise=True)
_reg("cmath.phase", "(complex z) -> float", cmath.phase, ("cmath.phase",))
_reg("cmath.polar", "(complex z) -> Tuple[float, float]", _polar, ("cmath.polar",),
     may_raise=True)
_reg("cmath.rect", "(float r, float phi) -> complex", cmath.rect, ("cmath.rect",),
     may_raise=True)
for _n in ("isnan", "isinf", "isfinite"):
    _reg(f"cmath.{_n}", "(complex z) -> bool", getattr(cmath, _n), (f"cmath.{_n}",))


def _isclose(a, b, rel_tol, abs_tol):
    return cmath.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)


_reg("cmath.isclose",
     "(complex a, complex b, *, float rel_tol=1.0e-09, float abs_tol=0.0) -> bool",
     _isclose, ("cmath.isclose",), may_raise=True)

CMATH_CONSTANTS = {name: getattr(cmath, name)
                   for name in ("pi", "e", "tau", "inf", "nan", "infj", "nanj")}
"""cmath's constants, which the compiler reads as constants (`cmath.infj`)."""
