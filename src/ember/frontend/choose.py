"""An if-chain whose branches each compute a value: the value of the first branch whose
test holds (the last branch's when none does), joined into one type."""

from __future__ import annotations

from ember.frontend.typing_ import ErrorType, show
from ember.ir import Region
from ember.ir import types as T


def choose(em, tests, builders, node, expected=None, what="the branches of this call"):
    """builders[i]() where tests[i] is the first true test (the last builder when none
    is): an if-chain, the branch values joined into one."""
    if len(builders) == 1:
        return em.as_value(builders[0](), node)
    loc = em.loc(node)
    branches = []
    for build in builders:
        r = Region()
        with em.at(r.block):
            v = em.as_value(build(), node)
            branches.append((r, v))
    bad = next((v for _, v in branches if isinstance(v.type, ErrorType)), None)
    if bad is not None:
        return bad
    t = _join([v.type for _, v in branches], expected)
    if t is None:
        return em.error(f"{what} give values of different types: " +
                        ", ".join(show(v.type) for _, v in branches), node.span)
    for r, v in branches:
        with em.at(r.block):
            em.b.yield_([em.coerce(v, t, None)], loc)
    return _chain(em, tests, [r for r, _ in branches], t, loc)


def _join(types, expected):
    t = types[0]
    for u in types[1:]:
        t = T.join(t, u) if t is not None else None
    if t is None and expected is not None and all(T.is_subtype(u, expected) for u in types):
        return expected
    if t is None and all(isinstance(u, T.ClassType) for u in types):
        return T.make_union(types)
    return t


def _chain(em, tests, regions, t, loc):
    """if tests[0]: regions[0] else if tests[1]: ... else regions[-1]."""
    rest = regions[1:]
    if len(rest) == 1:
        other = rest[0]
    else:
        other = Region()
        with em.at(other.block):
            em.b.yield_([_chain(em, tests[1:], rest, t, loc)], loc)
    return em.b.create("if", [tests[0]], [t], regions=[regions[0], other], loc=loc).result


__all__ = ["choose"]
