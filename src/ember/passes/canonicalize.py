"""canonicalize: small local rewrites to a fixed point, keyed by op name.

Each pattern says what it matches and why the rewrite is exact:
- `if` on a constant condition: the taken region's ops replace the if;
- `if` whose regions only yield the same outer values: those values;
- widen of widen, narrow of widen back to the original type, tuple.get of tuple.new;
- not(not(x)); `v is v` (True) and `v is not v` (False) of one SSA value; integer
  identities x+0, 0+x, x-0, x*1, 1*x, x//1 (never float ones: -0.0 and NaN make them
  inexact);
- a constant first operand of a commutative op moves second (helps CSE);
- a `for` over constant bounds that runs zero times: its results are its inits (or its
  else region, inlined).
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir import types as T
from ember.ir.core import COMMUTATIVE
from ember.ir.ops import (
    ForOp, IfOp, KernelOp, NarrowOp, TupleGetOp, TupleNewOp, WidenOp, YieldOp,
)
from ember.passes.registry import Pass
from ember.passes.util import _NO, all_ops, const_value, funcs, insert_const, is_const


def inline_region(op, region) -> None:
    """Move region's ops before op; its yield's operands replace op's results."""
    block = op.parent
    term = region.block.terminator
    for inner in list(region.block.ops):
        if inner is term and isinstance(term, YieldOp):
            break
        inner.detach()
        block.insert_before(op, inner)
    if isinstance(term, YieldOp):
        values = list(term.operands)
        term.erase()
        op.replace_with(values)
        return
    # The region exits (return/break/continue/raise): op and the rest of the block are
    # dead. Erase from the end, so users go before the values they use.
    idx = block.ops.index(op)
    for dead in list(reversed(block.ops[idx:])):
        dead.detach()
        dead._drop_all()


def p_if(op: IfOp) -> bool:
    c = const_value(op.operands[0])
    if c is not _NO:
        inline_region(op, op.regions[0] if c else op.regions[1])
        return True
    then_b, else_b = op.regions[0].block, op.regions[1].block
    if len(then_b.ops) == 1 and len(else_b.ops) == 1:
        t, e = then_b.ops[0], else_b.ops[0]
        if isinstance(t, YieldOp) and isinstance(e, YieldOp) and \
                all(a is b for a, b in zip(t.operands, e.operands)) and op.results:
            op.replace_with(list(t.operands))
            return True
    return False


def p_widen(op: WidenOp) -> bool:
    src = getattr(op.operands[0], "op", None)
    if isinstance(src, WidenOp):
        op.set_operand(0, src.operands[0])
        return True
    if op.operands[0].type == op.result.type:
        op.replace_with([op.operands[0]])
        return True
    return False


def p_narrow(op: NarrowOp) -> bool:
    src = getattr(op.operands[0], "op", None)
    if isinstance(src, WidenOp) and src.operands[0].type == op.result.type:
        op.replace_with([src.operands[0]])
        return True
    return False


def p_tuple_get(op: TupleGetOp) -> bool:
    src = getattr(op.operands[0], "op", None)
    if isinstance(src, TupleNewOp):
        op.replace_with([src.operands[op.attrs["index"]]])
        return True
    return False


_SAME_OBJECT = {"obj.is": True, "obj.isnot": False}
"""`v is v` of one SSA value: one object at run time, so always True."""

_IDENTITY = {("int.add", 1, 0), ("int.add", 0, 0), ("int.sub", 1, 0), ("int.mul", 1, 1),
             ("int.mul", 0, 1), ("int.floordiv", 1, 1)}


def p_kernel(op: KernelOp) -> bool:
    name = op.name
    if name == "bool.not":
        src = getattr(op.operands[0], "op", None)
        if isinstance(src, KernelOp) and src.name == "bool.not":
            op.replace_with([src.operands[0]])
            return True
        return False
    if name in _SAME_OBJECT and op.operands[0] is op.operands[1]:
        op.replace_with([insert_const(op, _SAME_OBJECT[name], T.BOOL)])
        return True
    if len(op.operands) == 2:
        for pos in (0, 1):
            v = const_value(op.operands[pos])
            if v is not _NO and type(v) is int and (name, pos, v) in _IDENTITY:
                op.replace_with([op.operands[1 - pos]])
                return True
        if op.has_trait(COMMUTATIVE) and is_const(op.operands[0]) and \
                not is_const(op.operands[1]):
            a, b = op.operands
            op.set_operands([b, a])
            return True
    return False


def p_for(op: ForOp) -> bool:
    lo, hi, step = (const_value(v) for v in op.operands[:3])
    if _NO in (lo, hi, step) or step == 0 or len(range(lo, hi, step)) != 0:
        return False
    if op.else_region is None:
        op.replace_with(list(op.inits))
        return True
    region = op.else_region
    for arg, init in zip(region.block.args, op.inits):
        arg.replace_all_uses_with(init)
    inline_region(op, region)
    return True


PATTERNS = {IfOp: p_if, WidenOp: p_widen, NarrowOp: p_narrow, TupleGetOp: p_tuple_get,
            KernelOp: p_kernel, ForOp: p_for}


def canonicalize(module, max_rounds: int = 10) -> bool:
    changed = False
    for _ in range(max_rounds):
        progress = False
        for f in funcs(module):
            for op in all_ops(f):
                if op.parent is None:
                    continue
                fn = PATTERNS.get(type(op))
                if fn is not None and fn(op):
                    progress = True
        changed |= progress
        if not progress:
            break
    return changed


@dataclass
class Canonicalize(Pass):
    name = "canonicalize"
    max_rounds: int = 10

    def run(self, module) -> bool:
        return canonicalize(module, self.max_rounds)


__all__ = ["Canonicalize", "canonicalize", "inline_region", "T"]
