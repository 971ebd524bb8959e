"""Keyword-only parameters, `**kwargs` parameters, and `f(*xs, **d)` calls.

`def f(a, *, b=1)`: b is an ordinary parameter of the compiled function that a call can
only give by keyword. `def f(a, **kw: int)`: kw is a `Dict[str, int]` made at each call
from the keyword arguments no parameter takes, in the call's order (CPython's). A
function with **kwargs is compiled where it is called (like one with *args), not as an
entry point. In a call, `*t` of a tuple (its length known at compile time) gives its
items as positional arguments and `**{"k": v}` (a dict display with constant str keys)
gives keyword arguments; every argument is evaluated once, left to right, before the
call binds them, as CPython does.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T


def kwargs_param(em, arg, names, types, defaults):
    """The `**kw: T` parameter: a Dict[str, T] (no default: the call makes it)."""
    elem = em.ann.resolve(arg.annotation) if arg.annotation is not None else T.TENSOR
    names.append(arg.arg)
    types.append(T.DictType(T.STR, elem))
    if defaults:
        defaults.append(None)  # never used: a call always passes the dict (bind_arguments)


def has_kwargs(node) -> bool:
    return isinstance(node, A.FunctionDef) and any(a.kind == "starstar" for a in node.args)


def param_kinds(info, nlead) -> list:
    """The kind of each parameter after the `nlead` leading values (self, captures):
    "normal", "kwonly" or "starstar" (a *args tuple, already packed, counts as normal)."""
    kinds = []
    for a in info.node.args:
        kinds.append("normal" if a.kind == "star" else a.kind)
    skip = 1 if info.owner is not None and not info.static else 0
    kinds = kinds[skip:]
    return kinds


def needs_expansion(node) -> bool:
    return any(isinstance(a, A.Starred) for a in node.args) or \
        any(k.arg is None for k in node.keywords)


def expand_call(em, node):
    """The call with `*t` and `**{...}` spread: every argument is evaluated, in order,
    into a hidden variable, and the new call reads them (None after an error). Also the
    hidden names of a list given as `*xs` and of a dict variable given as `**d` (spread
    at run time by frontend/spread.py), or None."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    from ember.frontend.spread import spreads_at_run_time
    sp = node.span
    args, keywords, names = [], [], []
    spread = [None, None]

    def hold(value, span):
        name = hidden_name("arg")
        em.env.set(name, Var(value.type, value, True))
        names.append(name)
        return A.Name(span, name)

    for a in node.args:
        if not isinstance(a, A.Starred):
            if spread[0] is not None:
                em.unsupported("a positional argument after f(*xs) of a list is not "
                               "supported (the list's length is known at run time only)",
                               a.span)
                return None, names, None
            args.append(hold(em.value(a), a.span))
            continue
        if isinstance(a.value, A.List) and \
                not any(isinstance(e, A.Starred) for e in a.value.elts):
            if spread[0] is not None:
                em.unsupported("a positional argument after f(*xs) of a list is not "
                               "supported (the list's length is known at run time only)",
                               a.span)
                return None, names, None
            for e in a.value.elts:  # *[a, b]: the display's items, as positional arguments
                args.append(hold(em.value(e), e.span))
            continue
        v = em.value(a.value)
        if isinstance(v.type, ErrorType):
            return None, names, None
        if spreads_at_run_time(v, a.value) and spread[0] is None:
            spread[0] = hold(v, a.span)
            continue
        if not isinstance(v.type, T.TupleType):
            em.unsupported(f"f(*xs) needs xs to be a tuple or a list, not {show(v.type)} "
                           "(or a second list: one *list per call)", a.span)
            return None, names, None
        for i, et in enumerate(v.type.elems):
            item = em.b.create("tuple.get", [v], [et], {"index": i}, loc=em.loc(a)).result
            args.append(hold(item, a.span))
    seen = set()
    for k in node.keywords:
        if k.arg is not None:
            pairs = [(k.arg, k.value, k.span)]
        elif isinstance(k.value, A.Dict) and all(
                isinstance(key, A.Constant) and isinstance(key.value, str)
                for key in k.value.keys):
            pairs = [(key.value, val, val.span) for key, val in zip(k.value.keys,
                                                                       k.value.values)]
        elif isinstance(k.value, A.Dict) and any(isinstance(key, A.Constant) and
                                                 not isinstance(key.value, str)
                                                 for key in k.value.keys):
            em.error("keywords must be strings (a key of the **{...} in this call is not a "
                     "str)", k.span)
            return None, names, None
        elif spread[1] is None and not isinstance(k.value, A.Dict):
            v = em.value(k.value)
            if isinstance(v.type, ErrorType):
                return None, names, None
            if not isinstance(v.type, T.DictType) or v.type.key != T.STR:
                em.error(f"f(**d) needs a Dict[str, V], not {show(v.type)}", k.span)
                return None, names, None
            spread[1] = hold(v, k.span)
            continue
        else:
            em.unsupported("f(**d) needs a dict with str keys (a display with constant "
                           "keys, or one dict variable per call)", k.span)
            return None, names, None
        for key, val, span in pairs:
            if key in seen:
                em.error(f"got multiple values for keyword argument '{key}'", span)
                return None, names, None
            seen.add(key)
            keywords.append(A.Keyword(span, key, hold(em.value(val), val.span)))
    return A.Call(sp, node.func, args, keywords), names, \
        (tuple(spread) if spread != [None, None] else None)


def pack_kwargs(em, fname, extra, ktype, node):
    """The dict of the keyword arguments no named parameter takes, in the call's order."""
    loc = em.loc(node)
    ops = []
    for k in extra:
        ops.append(em.b.const(k.arg, T.STR, loc))
        ops.append(em.coerce(em.value(k.value, ktype.value), ktype.value, k.value.span,
                             what=f"keyword argument '{k.arg}' of {fname}()'s **kwargs",
                             convert=True))
    return em.b.create("dict.new", ops, [ktype], loc=loc).result


__all__ = ["kwargs_param", "has_kwargs", "param_kinds", "expand_call", "pack_kwargs",
           "needs_expansion"]
