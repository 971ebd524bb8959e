"""Displays with unpacking: `[*xs, y]`, `(*t, y)` and `{**d, "k": v}`.

As CPython (3.9+) builds them: each part is evaluated left to right and added to the new
container at once (a list is extended by the items of `*xs`, a dict updated by `**d`): a
list or dict unpacked is copied when its part is evaluated, so that a later part changing
it (`[*xs, xs.pop()]`) does not change what was unpacked. `*xs` in a list takes
any iterable (a list, tuple, str, dict's keys, range, generator); in a tuple only a tuple,
whose length is known at compile time.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T


def list_display(em, node, expected):
    """[a, *xs, b]: a new list, each part appended or extended in order."""
    from ember.frontend.builtins_ import materialize
    want = expected.elem if isinstance(expected, T.ListType) else None
    parts = []
    for e in node.elts:
        if isinstance(e, A.Starred):
            parts.append((True, _snapshot(em, e.value, materialize(em, e.value)), e))
        else:
            parts.append((False, em.value(e, want), e))
    bad = next((v for _, v, _ in parts if isinstance(v.type, ErrorType)), None)
    if bad is not None:
        return bad
    elem = want or _join([v.type.elem if star else v.type for star, v, _ in parts])
    if elem is None:
        return em.error("the parts of this list display have different types: " +
                        ", ".join(show(v.type) for _, v, _ in parts), node.span)
    loc = em.loc(node)
    out = em.b.create("list.new", [], [T.ListType(elem)], loc=loc).result
    for star, v, e in parts:
        if star:
            em.b.kernel("list.extend", [out, em.coerce(v, T.ListType(elem), e.span,
                                                        "the unpacked list")], T.NONE, loc)
        else:
            em.b.kernel("list.append", [out, em.coerce(v, elem, e.span, "list element")],
                        T.NONE, loc)
    return out


def _snapshot(em, node, v):
    """The items of a list value as they are now (a later part may change the list)."""
    if isinstance(v.type, T.ListType) and not isinstance(node, (A.ListComp, A.GeneratorExp,
                                                                 A.List)):
        return em.b.kernel("list.copy", [v], T.as_list(v.type), em.loc(node))
    return v


def tuple_items(em, node):
    """The items of a tuple display whose `*t` parts are tuples (a value per item), or a
    tuple of run-time length (a Value) when a part is a list or such a tuple."""
    items, parts = [], []
    for e in node.elts:
        if not isinstance(e, A.Starred):
            items.append(em.value(e))
            parts.append((False, items[-1]))
            continue
        v = em.value(e.value)
        if isinstance(v.type, ErrorType):
            return None
        parts.append((True, v))
        if not isinstance(v.type, T.TupleType):
            if not isinstance(v.type, T.ListType):
                em.unsupported(f"(*xs, ...) needs xs to be a tuple or a list, not "
                               f"{show(v.type)}", e.span)
                return None
            continue
        for i, t in enumerate(v.type.elems):
            items.append(em.b.create("tuple.get", [v], [t], {"index": i},
                                     loc=em.loc(e)).result)
    if any(star and not isinstance(v.type, T.TupleType) for star, v in parts):
        return _run_time_tuple(em, node, parts)
    return items


def _run_time_tuple(em, node, parts):
    """(*xs, y) with xs a list: the list display of the parts' values (held in hidden
    variables: each was evaluated once, in order), made a tuple of run-time length."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    names, elts = [], []
    for star, v in parts:
        names.append(hidden_name("part"))
        em.env.set(names[-1], Var(v.type, v, True))
        ref = A.Name(node.span, names[-1])
        elts.append(A.Starred(node.span, ref) if star else ref)
    try:
        lst = em.value(A.List(node.span, elts))
    finally:
        for n in names:
            em.env.pop(n)
    if not isinstance(lst.type, T.ListType):
        return None
    return em.b.kernel("list.to_tuple", [lst], T.VarTupleType(lst.type.elem), em.loc(node))


def dict_display(em, node, expected):
    """{k: v, **d}: a new dict, each pair set and each `**d` merged in order."""
    kt = expected.key if isinstance(expected, T.DictType) else None
    vt = expected.value if isinstance(expected, T.DictType) else None
    parts = []
    for k, v in zip(node.keys, node.values):
        if k is None:
            d = em.value(v, expected if isinstance(expected, T.DictType) else None)
            if not isinstance(d.type, (T.DictType, ErrorType)):
                return em.error(f"'**' in a dict display needs a dict, not {show(d.type)}",
                                v.span)
            if isinstance(d.type, T.DictType):  # its items as they are now
                d = em.b.kernel("dict.copy", [d], d.type, em.loc(v))
            parts.append((None, d, v))
        else:
            parts.append((em.value(k, kt), em.value(v, vt), v))
    values = [p for part in parts for p in part[:2] if p is not None]
    bad = next((p for p in values if isinstance(p.type, ErrorType)), None)
    if bad is not None:
        return bad
    kt = kt or _join([d.type.key if k is None else k.type for k, d, _ in parts])
    vt = vt or _join([d.type.value if k is None else d.type for k, d, _ in parts])
    if kt is None or vt is None:
        return em.error("the parts of this dict display have different key or value types",
                        node.span)
    loc = em.loc(node)
    out = em.b.create("dict.new", [], [T.DictType(kt, vt)], loc=loc).result
    for k, v, n in parts:
        if k is None:
            em.b.kernel("dict.update", [out, em.coerce(v, T.DictType(kt, vt), n.span,
                                                        "the unpacked dict")], T.NONE, loc)
        else:
            em.b.kernel("dict.setitem", [out, em.coerce(k, kt, n.span, "dict key"),
                                         em.coerce(v, vt, n.span, "dict value")], T.NONE, loc)
    return out


def _join(types):
    if not types:
        return None
    t = types[0]
    for u in types[1:]:
        t = T.join(t, u)
        if t is None:
            return None
    return t


__all__ = ["list_display", "tuple_items", "dict_display"]
