"""ember.nn.functional: ember's operators as eager functions on numpy arrays.

    import ember.nn.functional as F
    y = F.linear(x, w, b)          # x, w, b numpy arrays
    y = F.softmax(y, dim=-1)

Every operator reachable as `torch.nn.functional.NAME` or `torch.NAME` in `ember.ops` is
`F.NAME` here (the `torch.nn.functional` spelling wins when both exist). A call picks the
first overload whose schema takes the runtime values, binds keywords and defaults by the
schema, and runs the kernel (see `ember.nn.eager`). Each function carries
`__ember_op__ = "<qualname>"`, which the compiler resolves to the same operators, so
`F.NAME` gives the same result eagerly and scripted.

dtype constants (`F.float32`, `F.int64`, `F.bool`, ...) are the numpy names the kernels
take. `Tensor` is numpy's ndarray: write annotations as `x: Tensor`.
"""

from __future__ import annotations

import numpy as np

from ember import ops
from ember.nn.eager import dtype, make_function

Tensor = np.ndarray
"""What a Tensor is at run time; the annotation ember.nn layers use."""

_PREFIXES = ("torch.nn.functional.", "torch.")

_DTYPES = {
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "float16": "float16", "half": "float16", "int64": "int64", "long": "int64",
    "int32": "int32", "int": "int32", "int16": "int16", "short": "int16", "int8": "int8",
    "uint8": "uint8", "bool": "bool", "complex64": "complex64", "cfloat": "complex64",
    "complex128": "complex128", "cdouble": "complex128",
}
"""torch's dtype names -> numpy names (keep in sync with frontend/meta.py TORCH_DTYPES)."""


def _qualnames() -> dict:
    """Public name -> the qualname it stands for, the functional spelling first."""
    chosen = {}
    for d in ops.all_ops():
        for q in d.python_names:
            for rank, prefix in enumerate(_PREFIXES):
                name = q[len(prefix):]
                if not q.startswith(prefix) or "." in name:
                    continue
                prev = chosen.get(name)
                if prev is None or rank < prev[0]:
                    chosen[name] = (rank, q)
    return {name: q for name, (_, q) in sorted(chosen.items())}


OPERATORS: dict = _qualnames()
"""Public name -> Python qualname of every operator function in this namespace."""

globals().update({name: dtype(np_name) for name, np_name in _DTYPES.items()})

_SHADOWS_BUILTIN = {"abs", "all", "any", "bool", "float", "int", "max", "min", "pow", "round",
                    "sum"}
__all__ = sorted(  # noqa: PLE0605 (generated from the registry)
    (set(OPERATORS) | set(_DTYPES) | {"Tensor", "dtype"}) - _SHADOWS_BUILTIN)


def _function(name: str):
    """The eager function of OPERATORS[name], made on first use (making all of them costs
    a fresh process ~10 ms) and kept as a module global from then on."""
    q = OPERATORS[name]
    return globals().setdefault(name, make_function(name, q, ops.by_python_name(q), __name__))


def __getattr__(name: str):
    if name in OPERATORS:
        return _function(name)
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"ember.nn.functional has no '{name}': ember has no operator for "
        f"torch.nn.functional.{name} or torch.{name} yet; write it from the operators that "
        "exist (see ember.nn.functional.OPERATORS) in a function ember can compile")


def __dir__():
    return sorted(set(globals()) | set(OPERATORS))
