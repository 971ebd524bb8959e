"""`ember.grad` and `ember.value_and_grad`: gradients of scripted functions.

    df = ember.grad(f, argnums=0)            # df(x, y) -> gradient of f w.r.t. x
    vg = ember.value_and_grad(f, (0, 1))     # vg(x, y) -> (f(x, y), (df/dx, df/dy))

`fn` is compiled as ember.script compiles it, then differentiated in IR
(ember.autodiff); the result is a ScriptFunction like any other (`.graph`, `.save`).
A gradient has its argument's structure: a float for a float, an array of the
argument's shape for a tensor, a tuple for a tuple.
"""

from __future__ import annotations

from ember.api.core import ScriptFunction, no_gc


@no_gc
def grad(fn, argnums=0, backend: str = "vm"):
    """The gradient of fn (which returns a float or a one-element tensor) with respect
    to its arguments `argnums` (an int, or a tuple giving a tuple of gradients).
    backend: where the gradient runs, as for ember.script ("vm" or "llvm")."""
    return _build(fn, argnums, with_value=False, backend=backend)


@no_gc
def value_and_grad(fn, argnums=0, backend: str = "vm"):
    """Like grad, returning (fn(...), gradients)."""
    return _build(fn, argnums, with_value=True, backend=backend)


def _build(fn, argnums, with_value: bool, backend: str = "vm") -> ScriptFunction:
    from ember.api.core import _check_backend
    from ember.autodiff import value_and_grad_func

    _check_backend(backend)
    module, entry = _compile(fn)
    suffix = "$value_and_grad" if with_value else "$grad"
    name = entry + suffix
    value_and_grad_func(module, entry, argnums, name, with_value)
    module.entries = [name]
    return ScriptFunction(module, name, backend=backend)


def _compile(fn):
    """(IR module, entry name) of a Python function or a ScriptFunction made by grad."""
    if isinstance(fn, ScriptFunction):
        from ember.passes.fuse import unfuse

        module = _deep_copy(fn.module)
        unfuse(module)  # optimized code holds fused groups; derivative rules are per op
        return module, fn.entry
    from ember.frontend import compile_function
    return compile_function(fn)


def _deep_copy(module):
    """modules._copy with room for its recursion: a gradient's IR nests deeply (a
    value's uses reach ops whose regions reach further values), past Python's default
    limit of 1000 frames for a program of a few dozen lines."""
    import sys

    from ember.api.modules import _copy

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 50_000))
    try:
        return _copy(module)
    finally:
        sys.setrecursionlimit(limit)
