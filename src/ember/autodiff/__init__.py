"""Reverse-mode differentiation as an IR-to-IR transformation (`transform.py`).

`differentiate(module, fname, argnums)` adds to an IR module a function computing
`fname`'s value and its gradients with respect to the arguments `argnums`; the result is
ordinary verified IR, optimized and lowered like any other function. Derivative rules
live in `ember.ops` beside the operators (`ops/vjp_*.py`, `ops.registry.VJP`) and build
their IR through the emitter of `emit.py`.
"""

from ember.autodiff.transform import differentiate, value_and_grad_func

__all__ = ["differentiate", "value_and_grad_func"]

from ember.ops import (  # noqa: E402,F401  (the rules)
    vjp_extra, vjp_layers, vjp_more, vjp_scalar, vjp_tensor)
