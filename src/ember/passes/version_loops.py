"""version-loops: give a `for` loop a copy that runs when its bounds are small.

Many overflow checks in a loop are provable only with a bound on the loop's range:
`i * i` fits for `i < 2**31`, yet `for i in range(n)` allows any int64 `n`. For such a
loop (constant positive step, non-constant bounds), the range analysis is rerun assuming
`lo >= -K` and `hi <= K` for a few limits K; if that proves more checked ops in the
loop, the loop becomes

    %k = const K : i64
    %g = int.le %hi, %k : bool          (and `int.ge %lo, -K` unless lo is known)
    %r = if %g : T {
      %r1 = for ...  (a copy)
      yield %r1
    } else {
      %r2 = for ...  (the loop)
      yield %r2
    }

with the largest K that proves the most; the `ranges` pass then drops the checks in the
copy. Both copies compute the same thing, so the guard only picks the faster one. Loops
inside a versioned loop are left alone (the copy is already proven, the original runs
only for large bounds), and loops over `max-ops` ops are not copied.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir import types as T
from ember.ir.core import Block, Region
from ember.ir.ops import ConstOp, ForOp, IfOp, KernelOp, YieldOp
from ember.passes import interval as I
from ember.passes.range_analysis import RangeAnalysis
from ember.passes.registry import Pass
from ember.passes.util import all_ops, const_value, funcs, keep_analysis

LIMITS = (1 << 31, 1 << 30, 1 << 26, 1 << 21, 1 << 16)
"""Candidate bounds K, largest first."""


def _nested_ops(loop):
    return all_ops(loop)


def _proven(analysis, ops) -> int:
    return sum(1 for op in ops if analysis.fits.get(op))


def _guards(loop, bounds, k) -> dict:
    """The facts to assume (value -> interval): the bounds not already within [-k, k]."""
    lo, hi = loop.operands[:2]
    out = {}
    if I.meet(bounds[0], (-k, I.I64[1])) != bounds[0]:
        out[lo] = (-k, I.I64[1])
    if I.meet(bounds[1], (I.I64[0], k)) != bounds[1]:
        out[hi] = (I.I64[0], k)
    return out


def choose_limit(loop, base) -> int | None:
    """The largest K in LIMITS under which the analysis proves the most checked ops of
    loop, if that is more than `base` (the analysis of the function) proves; else None."""
    ops = _nested_ops(loop)
    before = _proven(base, ops)
    if before == sum(1 for op in ops if op in base.fits) or loop not in base.entry:
        return None
    counts = {}
    for k in reversed(LIMITS):
        facts = _guards(loop, base.bounds(loop), k)
        counts[k] = _proven(base.what_if(loop, facts), ops) if facts else before
        if k == LIMITS[-1] and counts[k] <= before:
            return None
    best = max(counts.values())
    return max(k for k, c in counts.items() if c == best)


def version_loop(loop: ForOp, bounds, k: int) -> IfOp:
    """Put loop and a copy of it under `if (bounds within [-k, k])`; returns the if."""
    block, loc = loop.parent, loop.loc
    cond = None
    for v, (low, high) in _guards(loop, bounds, k).items():
        upper = low == I.I64[0]
        limit = ConstOp((), [T.I64], {"value": high if upper else low}, (), loc)
        block.insert_before(loop, limit)
        cmp = KernelOp("int.le" if upper else "int.ge", [v, limit.result], [T.BOOL], None, loc)
        block.insert_before(loop, cmp)
        if cond is not None:
            cmp = KernelOp("bool.and", [cond, cmp.result], [T.BOOL], None, loc)
            block.insert_before(loop, cmp)
        cond = cmp.result
    types = [r.type for r in loop.results]
    fast, slow = Region(Block()), Region(Block())
    if_op = IfOp([cond], types, None, [fast, slow], loc, [r.name for r in loop.results])
    block.insert_before(loop, if_op)
    for old, new in zip(loop.results, if_op.results):
        old.replace_all_uses_with(new)
    copy = loop.clone()
    fast.block.append(copy)
    fast.block.append(YieldOp(list(copy.results), (), None, (), loc))
    slow.block.append(loop.detach())
    slow.block.append(YieldOp(list(loop.results), (), None, (), loc))
    return if_op


def _is_candidate(op, max_ops: int) -> bool:
    """A `for` loop with a constant positive step, a non-constant bound, at most max_ops
    ops."""
    if not isinstance(op, ForOp):
        return False
    step = const_value(op.operands[2])
    return type(step) is int and step > 0 and len(_nested_ops(op)) <= max_ops and \
        not all(type(const_value(v)) is int for v in op.operands[:2])


class _Versioner:
    """Visits loops outermost first; a versioned loop's inner loops are not visited."""

    def __init__(self, f, max_ops: int):
        self.f = f
        self.max_ops = max_ops
        self.base = None
        self.changed = False

    def block(self, block) -> None:
        for op in list(block.ops):
            if _is_candidate(op, self.max_ops) and self.loop(op):
                continue
            for r in op.regions:
                self.block(r.block)

    def loop(self, loop) -> bool:
        if self.base is None:
            self.base = RangeAnalysis().run(self.f)
        k = choose_limit(loop, self.base)
        if k is None:
            return False
        version_loop(loop, self.base.bounds(loop), k)
        self.base = None
        self.changed = True
        return True


def version_loops(f, max_ops: int) -> bool:
    """Version f's loops that pay (see the module docstring); True if any was."""
    v = _Versioner(f, max_ops)
    v.block(f.body)
    if v.base is not None:  # computed after the last change: the `ranges` pass's analysis
        keep_analysis(f, "ranges", v.base)
    return v.changed


@dataclass
class VersionLoops(Pass):
    name = "version-loops"
    max_ops: int = 200

    def run(self, module) -> bool:
        changed = False
        for f in funcs(module):
            changed |= version_loops(f, self.max_ops)
        return changed
