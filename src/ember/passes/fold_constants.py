"""fold-constants: run pure operators on constant operands at compile time.

A kernel op whose operator is pure and foldable, and whose operands are all
`const`, is replaced by a `const` of the kernel's result. It must not hide a
run-time error: if the kernel raises (division by zero, int64 overflow, a bad
conversion), the op stays and raises when the program runs. Only results a
`const` can hold are folded (int within int64, float incl. nan/inf, complex, bool,
str, None); tensors and containers stay as ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.core import NO_FOLD, PURE
from ember.ir.ops import KernelOp, TupleGetOp, TupleNewOp
from ember.passes.registry import Pass
from ember.passes.util import _NO, all_ops, const_value, funcs, insert_const, representable


def fold_op(op) -> bool:
    """Fold one kernel op in place if possible; True if it was replaced."""
    if not isinstance(op, KernelOp) or not op.has_trait(PURE) or op.has_trait(NO_FOLD):
        return False
    args = [const_value(v) for v in op.operands]
    if any(a is _NO for a in args):
        return False
    d = op.opdef
    if d is None or not d.fold:
        return False
    try:
        value = d.kernel(*args)
    except Exception:  # noqa: BLE001 - the program raises this at run time: keep the op
        return False
    t = op.result.type
    if not representable(value, t):
        return False
    op.replace_with([insert_const(op, value, t)])
    return True


def fold_tuple_get(op) -> bool:
    """tuple.get of a tuple.new is the element (no run-time work at all)."""
    if not isinstance(op, TupleGetOp):
        return False
    src = getattr(op.operands[0], "op", None)
    if not isinstance(src, TupleNewOp):
        return False
    op.replace_with([src.operands[op.attrs["index"]]])
    return True


def fold_constants(module) -> bool:
    changed = False
    for f in funcs(module):
        for op in all_ops(f):
            if op.parent is None:
                continue
            changed |= fold_op(op) or fold_tuple_get(op)
    return changed


@dataclass
class FoldConstants(Pass):
    name = "fold-constants"

    def run(self, module) -> bool:
        return fold_constants(module)
