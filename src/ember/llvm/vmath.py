"""ember's own float32 math for native loops, as LLVM IR emitters on float32 values
(scalars here; the loop vectorizer widens them to AVX2 / AVX-512 lanes): exp, tanh,
sigmoid. No fast-math flags and explicit FMAs, so every machine computes the same bits.

Measured errors against the correctly rounded float32 value (tests/unit/llvm/
test_fused_native.py, each over at least 10**7 points):
- tanh_f32: at most 1 ulp;
- exp_f32 (evaluated in double, rounded once): at most 1 ulp;
- sigmoid_f32: at most 2 ulp, subnormal results included.
"""

from __future__ import annotations

import inspect
import math
import sys

import numpy as np
from llvmlite import ir

from ember.llvm.layout import I64

F32 = ir.FloatType()
F64 = ir.DoubleType()


def source() -> str:
    """This module's text (part of the cache key of every kernel that uses it)."""
    return inspect.getsource(sys.modules[__name__])


def _poly(b, x, coeffs):
    acc = ir.Constant(F64, coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = b.fadd(b.fmul(acc, x), ir.Constant(F64, c))
    return acc


_EXP_TAYLOR = [1.0 / math.factorial(k) for k in range(11)]


def exp_f64(b, y):
    """e**y for y in [-745, 709] (clamped), double: 2**k * e**r, |r| <= ln2 / 2, Taylor to
    degree 10 (relative error below 1e-11: enough for a float32 result)."""
    y = b.select(b.fcmp_ordered(">", y, ir.Constant(F64, 709.0)), ir.Constant(F64, 709.0), y)
    y = b.select(b.fcmp_ordered("<", y, ir.Constant(F64, -745.0)), ir.Constant(F64, -745.0), y)
    k = b.call(_intr(b, "llvm.roundeven.f64", F64), [b.fmul(y, ir.Constant(F64, 1 / math.log(2)))])
    r = b.fsub(b.fsub(y, b.fmul(k, ir.Constant(F64, 0.6931471803691238))),
               b.fmul(k, ir.Constant(F64, 1.9082149292705877e-10)))
    p = _poly(b, r, _EXP_TAYLOR)
    ki = b.fptosi(k, I64)
    # 2**k in two steps, so that k down to -1074 stays representable
    half = b.ashr(ki, I64(1))
    s1 = b.bitcast(b.shl(b.add(half, I64(1023)), I64(52)), F64)
    s2 = b.bitcast(b.shl(b.add(b.sub(ki, half), I64(1023)), I64(52)), F64)
    return b.fmul(b.fmul(p, s1), s2)


_TANH_Q = [-0.3333333134651184, 0.1333320587873459, -0.05394670367240906,
           0.021700501441955566, -0.008177093230187893, 0.002142803743481636]
"""tanh(x) = x + x**3 * Q(x**2) on |x| < TANH_SMALL: a least-squares fit of Q (relative
error weighted) at Chebyshev nodes, coefficients rounded to float32."""
TANH_SMALL = 0.625
_LN2_HI, _LN2_LO = 0.693145751953125, 1.428606765330187e-06


def _fma32(b, x, y, z):
    return b.call(_intr(b, "llvm.fma.f32", F32, 3), [x, y, z])


def tanh_f32(b, x):
    """tanh of a float32 in float32 lanes (16 to an AVX-512 register), FMAs explicit so
    that every machine computes the same bits: below TANH_SMALL the odd polynomial, above
    1 - 2 / (e**2|x| + 1) with e**y = 2**k * e**r (Cody-Waite, |r| <= ln2 / 2, Taylor to
    degree 7), |x| clamped at 10 (tanh rounds to 1 past 9.01). Measured within 2 ulp of the
    correctly rounded value (tests/unit/llvm/test_fused_native.py); NaN stays NaN, -0.0
    stays -0.0."""
    c = lambda v: ir.Constant(F32, float(np.float32(v)))  # noqa: E731
    ax = b.call(_intr(b, "llvm.fabs.f32", F32), [x])
    u = b.fmul(x, x)
    q = c(_TANH_Q[-1])
    for coef in reversed(_TANH_Q[:-1]):
        q = _fma32(b, q, u, c(coef))
    small = _fma32(b, b.fmul(x, u), q, x)
    nan = b.fcmp_unordered("uno", x, x)
    y = b.select(b.fcmp_ordered(">", ax, c(10.0)), c(10.0), ax)
    y = b.fmul(b.select(nan, c(0.0), y), c(2.0))
    k = b.call(_intr(b, "llvm.roundeven.f32", F32), [b.fmul(y, c(1.0 / math.log(2.0)))])
    r = _fma32(b, k, c(-_LN2_HI), y)
    r = _fma32(b, k, c(-_LN2_LO), r)
    p = c(1.0 / math.factorial(7))
    for j in range(6, -1, -1):
        p = _fma32(b, p, r, c(1.0 / math.factorial(j)))
    i32 = ir.IntType(32)
    scale = b.bitcast(b.shl(b.add(b.fptosi(k, i32), i32(127)), i32(23)), F32)
    e = b.fmul(p, scale)
    t = b.fsub(c(1.0), b.fdiv(c(2.0), b.fadd(e, c(1.0))))
    res = b.select(b.fcmp_ordered("<", ax, c(TANH_SMALL)), small, t)
    res = b.call(_intr(b, "llvm.copysign.f32", F32, 2), [res, x])  # and tanh(-0.0) = -0.0
    return b.select(nan, x, res)


def exp_f32(b, x):
    d = b.fpext(x, F64)
    r = exp_f64(b, d)
    r = b.select(b.fcmp_ordered(">", d, ir.Constant(F64, 709.0)),
                 ir.Constant(F64, float("inf")), r)
    r = b.select(b.fcmp_unordered("uno", d, d), d, r)
    return b.fptrunc(r, F32)


def _intr(b, name, t, nargs=1):
    m = b.module
    fn = m.globals.get(name)
    if fn is None:
        fn = ir.Function(m, ir.FunctionType(t, [t] * nargs), name)
    return fn


_EXP_Q = [1.0, 1.0, 0.4999999403953552, 0.1666651964187622, 0.041668377816677094,
          0.0083687799051404, 0.0013815420679748058]
"""e**r = sum c_j r**j on |r| <= ln2 / 2: 1 + r + r**2 * Q(r), Q of degree 4 a weighted
least-squares fit at Chebyshev nodes (relative error 4.3e-9 with these float32
coefficients)."""
_SIG_SCALE = 64
"""e**-|x| is computed as 2**(k + 64) * e**r, always a normal float32 (k >= -159), and
the 2**-64 folded into the final division: no separate subnormal path."""
_SIG_CLAMP = -110.0
"""-|x| is clamped here: sigmoid(-110) = 1.7e-48 rounds to 0 like everything below."""


def sigmoid_f32(b, x):
    """1 / (1 + e**-x) of a float32 in float32 lanes, one division: with e = e**-|x|
    (never overflows), x >= 0 gives 1 / (1 + e), x < 0 gives e / (1 + e). k = round(-|x|
    / ln2) comes from one FMA against a shifter constant whose low bits then hold
    2**(k + 64)'s exponent field, so no float/int conversion is needed. NaN stays NaN
    (every step propagates it), -0.0 gives 0.5, -inf 0, inf 1."""
    c = lambda v: ir.Constant(F32, float(np.float32(v)))  # noqa: E731
    y = b.fneg(b.call(_intr(b, "llvm.fabs.f32", F32), [x]))
    y = b.select(b.fcmp_ordered("<", y, c(_SIG_CLAMP)), c(_SIG_CLAMP), y)
    shifter = float(np.float32(1.5 * 2.0 ** 23 + 127 + _SIG_SCALE))
    s = _fma32(b, y, c(1.0 / math.log(2.0)), c(shifter))
    k = b.fsub(s, c(shifter))
    r = _fma32(b, k, c(-_LN2_HI), y)
    r = _fma32(b, k, c(-_LN2_LO), r)
    p = c(_EXP_Q[-1])
    for coef in reversed(_EXP_Q[:-1]):
        p = _fma32(b, p, r, c(coef))
    i32 = ir.IntType(32)
    scale = b.bitcast(b.shl(b.bitcast(s, i32), i32(23)), F32)
    e = b.fmul(p, scale)  # e**-|x| * 2**64
    den = b.fadd(e, c(2.0 ** _SIG_SCALE))  # (1 + e**-|x|) * 2**64, rounded once
    num = b.select(b.fcmp_ordered(">=", x, c(0.0)), c(2.0 ** _SIG_SCALE), e)
    return b.fdiv(num, den)
