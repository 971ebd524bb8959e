"""cse: merge pure, region-free ops that compute the same thing.

Two ops are the same when they have the same name, operands, attributes and
result types. The table is scoped by structured dominance: an op is visible
to ops after it in its block and to everything nested in later ops of that
block; sibling regions (the two arms of an `if`) never see each other.
Fresh containers are not PURE (see ember.ops), so they are never merged.

A pure op with a mutable operand (a list, dict, object or tensor, or a tuple
or optional holding one: `str(xs)`, `x + 1` on a tensor) reads memory: its
entry is dropped at every op that may write memory (an impure kernel, a call,
any op with regions), and memory reads from outside a loop or try are not
visible inside it (a later iteration, or the body before a handler, may have
written in between).
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir import types as T
from ember.ir.core import ALLOC, PURE
from ember.ir.ops import FusedOp, IfOp
from ember.passes.registry import Pass
from ember.passes.util import funcs


def _key(op):
    attrs = tuple(sorted((k, _hashable(v)) for k, v in op.attrs.items())) if op.attrs else ()
    return (op.name, tuple(map(id, op.operands)), attrs, tuple([r.type for r in op.results]))


def _hashable(v):
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, float):
        return ("float", v.hex() if v == v else "nan")
    if isinstance(v, complex):  # -0j and 0j are equal but distinct constants
        return ("complex", _hashable(v.real), _hashable(v.imag))
    return (type(v).__name__, v) if not isinstance(v, T.Type) else ("type", str(v))


def _mutable(t) -> bool:
    """Values of type t may change in place (or hold something that may)."""
    if isinstance(t, (T.ListType, T.DictType, T.SetType, T.IterType, T.ClassType,
                      T.TensorType)):
        return True
    if isinstance(t, T.TupleType):
        return any(_mutable(e) for e in t.elems)
    if isinstance(t, (T.OptionalType, T.UnionType)):
        return any(_mutable(m) for m in T.members(t))
    return False


def _reads_memory(op) -> bool:
    return any(_mutable(v.type) for v in op.operands)


def cse_block(block, table: dict, reads: dict | None = None) -> bool:
    """Merge in `block`: `table` holds the visible pure ops (entries the block adds are
    removed on the way out: an undo list, not a copy per region), `reads` the visible
    memory reads, forgotten at every op that may write."""
    changed = False
    added = []
    mem = dict(reads or {})
    for op in list(block.ops):
        if isinstance(op, FusedOp):  # isolated from above: nothing outside is visible
            changed |= cse_block(op.body, {}, None)
            mem = {}
            continue
        if op.regions:
            for r in op.regions:
                changed |= cse_block(r.block, table, mem if isinstance(op, IfOp) else None)
            mem = {}  # any op with regions may write memory
            continue
        traits = op.traits
        if PURE not in traits:
            if ALLOC not in traits:  # an impure op that is no fresh allocation may write
                mem = {}
            continue
        if not op.results:
            continue
        key = _key(op)
        memory = _reads_memory(op)
        prev = (mem if memory else table).get(key)
        if prev is not None:
            op.replace_with(prev.results)
            changed = True
        elif memory:
            mem[key] = op
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
