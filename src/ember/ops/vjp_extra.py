"""Derivative rules added with the differentiable-program fuzzer (ember fuzz --mode grad):
a number raised to a tensor, and the rules of operators real models use that had none
(see ops/vjp_tensor.py for the conventions). Each is written in ember operators, so a
gradient stays differentiable."""

from __future__ import annotations

from ember.ops.registry import vjp


@vjp("tensor.rpow_scalar")
def _rpow_scalar(e, a, out, g):
    """out = s ** x: dx = out * log(s), ds = sum(out * x / s)."""
    x, s = a
    sf = s if e.is_float(s) else e.op("int.to_float", s)
    gx = e.op("tensor.mul_scalar", e.op("tensor.mul", g, out), e.op("math.log", sf))
    gs = None
    if e.is_float(s):
        gs = e.to_float(e.op("tensor.truediv_scalar",
                             e.op("tensor.mul", e.op("tensor.mul", g, out), x), s))
    return [gx, gs]


@vjp("grad.log_or_zero")
def _log_or_zero(e, a, out, g):
    """The exponent's share of a ** b differentiates again (grad of grad of a power)."""
    return [e.op("float.mul", g, e.op("grad.inv_or_zero", a[0]))]


@vjp("grad.inv_or_zero")
def _inv_or_zero(e, a, out, g):
    return [e.op("float.neg", e.op("float.mul", g, e.op("float.mul", out, out)))]
