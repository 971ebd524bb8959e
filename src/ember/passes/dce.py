"""dce: remove what cannot affect the program.

- pure ops (no side effect, cannot raise) whose results are unused;
- results of `if`/`try` that nobody uses (and the values their regions yield);
- loop-carried values whose result is unused and whose block arguments only
  feed the same slot of the loop's own yield/break/continue;
- mutable slots (`var.*`) that are never read;
- functions no entry point reaches through call/closure.

Ops that may raise stay even when unused: removing them would hide an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.core import ALLOC, MAY_RAISE, PURE
from ember.ir.ops import (
    BreakOp, CallOp, ClosureOp, ContinueOp, ForOp, IfOp, TryOp, VarGetOp, VarNewOp, VarSetOp,
    YieldOp, _LoopOp,
)
from ember.passes.registry import Pass
from ember.passes.util import all_ops, funcs


def removable(op) -> bool:
    for r in op.results:
        if r.uses:
            return False
    if isinstance(op, VarGetOp):
        return True
    traits = op.traits
    return (PURE in traits or ALLOC in traits) and MAY_RAISE not in traits and not op.regions


def dead_ops(f, ops=None) -> bool:
    changed = False
    for op in reversed(ops or all_ops(f)):
        if op.parent is not None and removable(op):
            op.erase()
            changed = True
    return changed


def dead_slots(f, ops=None) -> bool:
    changed = False
    for op in ops or all_ops(f):
        if isinstance(op, VarNewOp) and op.parent is not None:
            users = [u.op for u in op.result.uses]
            if all(isinstance(u, VarSetOp) for u in users):
                for u in users:
                    u.erase()
                op.erase()
                changed = True
    return changed


def dead_results(f, ops=None) -> bool:
    changed = False
    for op in ops or all_ops(f):
        if op.parent is None:
            continue
        if isinstance(op, (IfOp, TryOp)):
            changed |= _drop_if_results(op)
        elif isinstance(op, _LoopOp):
            changed |= _drop_loop_slots(op)
    return changed


def _rebuild_results(op, keep):
    """Keep only results at indices `keep` (uses are remapped)."""
    from ember.ir.core import OpResult
    old = op.results
    op.results = [OpResult(old[i].type, op, n, old[i].name) for n, i in enumerate(keep)]
    for n, i in enumerate(keep):
        old[i].replace_all_uses_with(op.results[n])


def _drop_if_results(op) -> bool:
    dead = [i for i, r in enumerate(op.results) if not r.uses]
    if not dead:
        return False
    keep = [i for i in range(len(op.results)) if i not in dead]
    fin = op.finally_region if isinstance(op, TryOp) else None
    for r in op.regions:
        t = r.block.terminator
        if isinstance(t, YieldOp) and r is not fin:
            t.set_operands([t.operands[i] for i in keep])
    _rebuild_results(op, keep)
    return True


def _drop_loop_slots(op) -> bool:
    if all(r.uses for r in op.results):
        return False  # every slot is used after the loop
    skip = 1 if isinstance(op, ForOp) else 0
    n = len(op.results)
    exits = [t for t in _loop_terminators(op)]
    dead = []
    for k in range(n):
        if op.results[k].uses:
            continue
        args = [r.block.args[(skip if r is op.body else 0) + k] for r in op.regions]
        if all(_only_feeds_slot(a, k, exits) for a in args):
            dead.append(k)
    if not dead:
        return False
    keep = [k for k in range(n) if k not in dead]
    for t in exits:
        t.set_operands([t.operands[k] for k in keep])
    inits = list(op.inits)
    fixed = op.operands[:op.carried_start]
    op.set_operands(list(fixed) + [inits[k] for k in keep])
    for r in op.regions:
        off = skip if r is op.body else 0
        for k in sorted(dead, reverse=True):
            r.block.erase_arg(off + k)
    _rebuild_results(op, keep)
    return True


def _only_feeds_slot(arg, k, exits) -> bool:
    return all(u.op in exits and u.index == k for u in arg.uses)


def _loop_terminators(loop):
    """The yields of the loop's regions and the break/continue ops that target it."""
    out = []
    for idx, r in enumerate(loop.regions):
        if isinstance(loop, type(loop)) and r is getattr(loop, "cond", None):
            continue
        t = r.block.terminator
        if isinstance(t, YieldOp):
            out.append(t)
    out.extend(_exits_targeting(loop.body.block, loop))
    return out


def _exits_targeting(block, loop):
    found = []
    for op in block.ops:
        if isinstance(op, (BreakOp, ContinueOp)):
            found.append(op)
        for i, r in enumerate(op.regions):
            if isinstance(op, _LoopOp) and r is op.body:
                continue  # exits in a nested loop's body target that loop
            found.extend(_exits_targeting(r.block, loop))
    return found


def dead_functions(module) -> bool:
    if not module.entries:
        return False
    live, work = set(), list(module.entries)
    work += [s for c in module.classes.values() for s in c.methods.values()]
    while work:
        name = work.pop()
        if name in live or name not in module.funcs:
            continue
        live.add(name)
        for op in all_ops(module.funcs[name]):
            if isinstance(op, (CallOp, ClosureOp)):
                work.append(op.callee)
    dead = [n for n in module.funcs if n not in live]
    for n in dead:
        module.remove_func(n)
    return bool(dead)


def dce(module) -> bool:
    changed = False
    progress = True
    while progress:
        progress = False
        for f in funcs(module):
            # One walk serves the three: none of them adds an op, and each skips the ops
            # an earlier one erased (their parent is None).
            ops = all_ops(f)
            progress |= dead_results(f, ops)
            progress |= dead_slots(f, ops)
            progress |= dead_ops(f, ops)
        changed |= progress
    return dead_functions(module) or changed


@dataclass
class DeadCodeElimination(Pass):
    name = "dce"

    def run(self, module) -> bool:
        return dce(module)
