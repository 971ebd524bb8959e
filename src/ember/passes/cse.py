"""cse: merge pure, region-free ops that compute the same thing.

Two ops are the same when they have the same name, operands, attributes and
result types. The table is scoped by structured dominance: an op is visible
to ops after it in its block and to everything nested in later ops of that
block; sibling regions (the two arms of an `if`) never see each other.
Mutable-container reads and fresh containers are not PURE (see ember.ops),
so they are never merged.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir import types as T
from ember.ir.core import PURE
from ember.passes.registry import Pass
from ember.passes.util import funcs


def _key(op):
    attrs = tuple(sorted((k, _hashable(v)) for k, v in op.attrs.items()))
    return (op.name, tuple(id(v) for v in op.operands), attrs,
            tuple(r.type for r in op.results))


def _hashable(v):
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, float):
        return ("float", v.hex() if v == v else "nan")
    return (type(v).__name__, v) if not isinstance(v, T.Type) else ("type", str(v))


def cse_block(block, table: dict) -> bool:
    """CSE in block with `table` (key -> op) holding what dominates it. Entries the block
    adds are removed again on the way out (an undo list, not a copy per region)."""
    changed = False
    added = []
    for op in list(block.ops):
        for r in op.regions:
            changed |= cse_block(r.block, table)
        if op.regions or not op.has_trait(PURE) or not op.results:
            continue
        key = _key(op)
        prev = table.get(key)
        if prev is not None:
            op.replace_with(prev.results)
            changed = True
        else:
            table[key] = op
            added.append(key)
    for key in added:
        del table[key]
    return changed


@dataclass
class CommonSubexpressionElimination(Pass):
    name = "cse"

    def run(self, module) -> bool:
        return any([cse_block(f.body, {}) for f in funcs(module)])
