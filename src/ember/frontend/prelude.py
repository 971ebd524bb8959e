"""Helper functions written in Python and compiled on demand, per element type.

Some builtins have no kernel that can honour user-defined behaviour: sorting a
list of user objects must call the class's `__lt__`, which exists only as a
compiled method. Such helpers are written here as ordinary source, parsed once,
and compiled by the frontend itself with the parameter types of the use (like a
lambda), so `<` on the elements dispatches to `__lt__` exactly as in the user's
code. Each (helper, parameter types) pair is compiled once per module.
"""

from __future__ import annotations

from ember.errors import Source

_SOURCE = '''
def sort(xs, reverse):
    # Stable bottom-up merge sort using only `<`, like list.sort: with reverse, an
    # element moves ahead only if it is strictly greater, so equal elements keep
    # their order (Python's reverse sort is stable too).
    n = len(xs)
    src = xs[:]
    dst = xs[:]
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            a = lo
            b = mid
            k = lo
            while k < hi:
                take_b = False
                if a >= mid:
                    take_b = True
                elif b < hi:
                    if reverse:
                        take_b = src[a] < src[b]
                    else:
                        take_b = src[b] < src[a]
                if take_b:
                    dst[k] = src[b]
                    b += 1
                else:
                    dst[k] = src[a]
                    a += 1
                k += 1
            lo = hi
        src, dst = dst, src
        width *= 2
    for i in range(n):
        xs[i] = src[i]
'''

_PARSED: dict = {}


def _definition(name: str):
    if not _PARSED:
        from ember.frontend import ast as A
        from ember.frontend.parser import parse_module
        source = Source("<ember prelude>", _SOURCE)
        for node in parse_module(source).body:
            if isinstance(node, A.FunctionDef):
                _PARSED[node.name] = (node, source)
    return _PARSED[name]


def helper(em, name: str, param_types) -> str:
    """The symbol of prelude function `name` compiled for param_types (once per module)."""
    from ember.frontend.closures import _compile
    from ember.frontend.compiler import FuncInfo
    from ember.frontend.meta import UnitScope

    c = em.c
    cache = c.__dict__.setdefault("_prelude", {})
    key = (name, tuple(param_types))
    info = cache.get(key)
    if info is None:
        node, source = _definition(name)
        c.module.sources.setdefault(source.filename, source.text)  # for run-time tracebacks
        info = FuncInfo(f"ember.{name}", node, source, UnitScope({}, c))
        info.nested = True
        cache[key] = info
        _compile(em, info, [], list(param_types))
    return info
