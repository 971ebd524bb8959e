"""Helpers shared by passes: constants, op replacement, walking."""

from __future__ import annotations

from ember.ir import types as T
from ember.ir.core import SymbolRef
from ember.ir.ops import ConstOp
from ember.ops.int64 import INT64_MAX, INT64_MIN

_NO = object()


def const_value(v):
    """The Python value of v if a `const` op defines it (not tensor constants), else _NO."""
    op = getattr(v, "op", None)
    if isinstance(op, ConstOp) and not isinstance(op.value, SymbolRef):
        return op.value
    return _NO


def is_const(v) -> bool:
    return const_value(v) is not _NO


def representable(value, t) -> bool:
    """Can `value` be a `const` of IR type t?"""
    if t == T.BOOL:
        return type(value) is bool
    if t == T.I64:
        return type(value) is int and INT64_MIN <= value <= INT64_MAX
    if t == T.F64:
        return type(value) is float
    if t == T.C128:
        return type(value) is complex
    if t == T.STR:
        return type(value) is str
    if t == T.NONE:
        return value is None
    return False


def insert_const(before_op, value, t):
    """A new const op inserted before `before_op`; returns its result."""
    c = ConstOp((), [t], {"value": value}, (), before_op.loc)
    before_op.parent.insert_before(before_op, c)
    return c.result


ANALYSES = "analyses"
"""FuncOp.meta key of the analyses a pass left for the next pass of the same pipeline. The
pass manager creates the (empty) dict when it starts, drops each entry after the pass
following its keeper (all of them after a pass that changes the module) and removes the
dict at the end, so an analysis found there describes the function as it is. Outside a
pass manager there is no dict and nothing is kept."""


def kept_analysis(f, name: str):
    """The analysis `name` of f an earlier pass of this pipeline left, or None."""
    kept = f.meta.get(ANALYSES)
    return kept.get(name) if kept else None


def keep_analysis(f, name: str, analysis) -> None:
    """Leave f's current analysis `name` for the next pass."""
    kept = f.meta.get(ANALYSES)
    if kept is not None:
        kept[name] = analysis


def kept_snapshot(module) -> dict:
    """Function name -> (analysis name -> analysis object) as kept right now."""
    return {name: dict(f.meta.get(ANALYSES) or {}) for name, f in module.funcs.items()}


def forget_unchanged(module, before: dict) -> None:
    """Drop every kept analysis the last pass did not keep anew (still the object it was
    in `before`): analyses reach only the pass right after their keeper."""
    for name, f in module.funcs.items():
        kept = f.meta.get(ANALYSES)
        old = before.get(name, {})
        if kept:
            for k in [k for k, a in kept.items() if old.get(k) is a]:
                del kept[k]


def reset_analyses(module, drop: bool = False) -> None:
    """Forget every kept analysis (drop: and stop keeping them)."""
    for f in module.funcs.values():
        if drop:
            f.meta.pop(ANALYSES, None)
        else:
            f.meta[ANALYSES] = {}


def funcs(module):
    return list(module.funcs.values())


def all_ops(f):
    """Every op nested in f (a function, or any op with regions), post-order (inner ops
    before the op that holds them)."""
    out: list = []
    append = out.append

    def visit(block):
        for op in block.ops:
            if op.regions:
                for r in op.regions:
                    visit(r.block)
            append(op)

    for r in f.regions:
        visit(r.block)
    return out


__all__ = ["const_value", "is_const", "representable", "insert_const", "funcs", "all_ops",
           "kept_analysis", "keep_analysis", "kept_snapshot", "forget_unchanged",
           "reset_analyses", "_NO"]
