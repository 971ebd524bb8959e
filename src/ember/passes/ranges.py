"""ranges: drop int64 overflow checks that the range analysis proves can never fire.

A checked int op (`int.add`, `int.sub`, `int.mul`, `int.floordiv`, `int.neg`,
`int.abs`) whose exact result is proven to lie in int64 (range_analysis.py) becomes its
`_nowrap` twin: the same operator without the check, which the runtime inlines as a bare
CPython operator. Nothing else changes: a `_nowrap` op computes the same value, and the
checked op could not have raised (`int.floordiv_nowrap` still raises ZeroDivisionError).
Likewise an `int.mod` whose dividend is proven >= 0 and divisor >= 1 becomes
`int.mod_natural`: the same value, which native code computes as an unsigned
remainder (no sign fix-up, no zero check).
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.ops import KernelOp
from ember.passes.range_analysis import CHECKED, RangeAnalysis
from ember.passes.registry import Pass
from ember.passes.util import funcs, kept_analysis

NOWRAP = {name: name + "_nowrap" for name in CHECKED}
"""Checked operator -> its twin without the overflow check."""


def replace_kernel(op: KernelOp, name: str) -> KernelOp:
    """A kernel op `name` with op's operands, result type, name hint and location in place
    of op."""
    new = KernelOp(name, list(op.operands), [op.result.type], dict(op.attrs), op.loc,
                   [op.result.name])
    op.parent.insert_before(op, new)
    op.replace_with([new.result])
    return new


def narrow_checks(f) -> bool:
    """Replace f's proven checked ops by their `_nowrap` twins; True if any was."""
    analysis = kept_analysis(f, "ranges") or RangeAnalysis().run(f)
    proven = [op for op, ok in analysis.fits.items() if ok and op.name in NOWRAP]
    for op in proven:
        replace_kernel(op, NOWRAP[op.name])
    natural = [op for op, ok in analysis.natural.items() if ok and op.name == "int.mod"]
    for op in natural:
        replace_kernel(op, "int.mod_natural")
    return bool(proven or natural)


@dataclass
class Ranges(Pass):
    name = "ranges"

    def run(self, module) -> bool:
        changed = False
        for f in funcs(module):
            changed |= narrow_checks(f)
        return changed
