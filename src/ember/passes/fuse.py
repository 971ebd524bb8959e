"""fuse: group connected elementwise tensor ops into `tensor.fused` ops.

In each block, in order, an op the fusion vocabulary holds (ember.ops.fusion: elementwise
and broadcasting operators, a last-dim reduction, a producer) joins the groups of the ops
whose results it uses, when the whole merged group can move to it:

* a producer (linear, conv2d) only starts a group; a reduction (softmax, log_softmax,
  layer_norm) ends one: nothing joins a group after its reduction;
* every value a member defines and a non-member uses is used only after the joining op
  (the group is placed at its last member, so those uses must come later);
* no op between a member and the joining op may write a tensor or call a function
  (moving a member down past it could change what the member reads).

Groups of two ops or more, with at least `min_elementwise` elementwise ones, become one `tensor.fused`
op at the place of their last member. Its operands are the values the members use from
outside (scalar constants are copied into the region instead), its results the values used
outside it. The members keep their order in the region, so every element is computed by
the same operations in the same order: the VM's results are bit-identical to the unfused
ops' (mobile/fused.py).
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

from ember.interpreter.mutation import writes_tensor
from ember.ir.core import Block, Region
from ember.ir.ops import CallIndirectOp, CallOp, ConstOp, FusedOp, KernelOp, YieldOp
from ember.ops.fusion import kind, region_op_problem
from ember.passes.registry import Pass
from ember.passes.util import funcs


@dataclass
class Fuse(Pass):
    """Option min_elementwise: the fewest elementwise ops a group needs (besides a
    producer and a reduction). The default, 2, suits the VM: there a group of a producer
    and one activation saves at most one allocation and costs its dispatch, about 1.5 us
    per call (with 1, the MLP at batch 1 ran 0.024 ms instead of 0.021; no bench model
    ran faster), so only groups that chain elementwise ops fuse. A native backend, which makes each group one loop, wants 1 (epilogues)."""

    name = "fuse"
    min_elementwise: int = 2

    def run(self, module) -> bool:
        changed = False
        for f in funcs(module):
            changed |= _fuse_block(f.body, self.min_elementwise)
        return changed


class _Group:
    """Members (in no order until built), whether a reduction closed it, its first
    member's position, and a heap of (position, n, user) of the ops outside it that use
    its members' results (user None: outside this block), purged lazily."""

    __slots__ = ("members", "closed", "first", "uses")

    def __init__(self, op, pos, block, counter):
        self.members = [op]
        self.closed = kind(op.name) == "reduction"
        self.first = pos[op]
        self.uses = []
        for r in op.results:
            for u in r.uses:
                user = _in_block(u.op, block)
                heapq.heappush(self.uses, (pos[user] if user is not None else -1,
                                           next(counter), user))


def _member_kind(op) -> str | None:
    if not isinstance(op, KernelOp) or len(op.results) != 1:
        return None
    k = kind(op.name)
    if k is None or region_op_problem(op):
        return None
    if op.name == "tensor.layer_norm" and not _one_dim_shape(op.operands[1]):
        return None
    return k


def _one_dim_shape(v) -> bool:
    """normalized_shape given as a one-element list literal (a last-dim layer norm)."""
    op = getattr(v, "op", None)
    return op is not None and op.name == "list.new" and len(op.operands) == 1


def _barrier(op) -> bool:
    """op may write a tensor a member reads, or run code that does."""
    return any(isinstance(o, (CallOp, CallIndirectOp)) or
               isinstance(o, KernelOp) and writes_tensor(o) for o in op.walk())


def _fuse_block(block, min_elementwise) -> bool:
    changed = False
    for op in list(block.ops):
        if not isinstance(op, FusedOp):
            for r in op.regions:
                changed |= _fuse_block(r.block, min_elementwise)
    pos = {op: i for i, op in enumerate(block.ops)}
    barriers = [0]
    for op in block.ops:
        barriers.append(barriers[-1] + _barrier(op))
    counter = itertools.count()
    group_of: dict = {}
    for op in list(block.ops):
        k = _member_kind(op)
        if k is None:
            continue
        group = _Group(op, pos, block, counter)
        group_of[op] = group
        if k == "producer":
            continue
        for g in _producer_groups(op, group_of):
            if g is not group and not g.closed and \
                    _can_join(g, group, pos[op], group_of, barriers):
                group = _merge(g, group, group_of)
    groups = {id(g): g for g in group_of.values()}
    for g in sorted(groups.values(), key=lambda g: g.first):
        if _worth_fusing(g, min_elementwise):
            g.members.sort(key=pos.__getitem__)
            _build(g, block)
            changed = True
    return changed


def _producer_groups(op, group_of) -> list:
    seen = []
    for v in op.operands:
        g = group_of.get(getattr(v, "op", None))
        if g is not None and g not in seen:
            seen.append(g)
    return seen


def _can_join(g, new, at, group_of, barriers) -> bool:
    """Can the members of g and of new (which holds `at`'s op, its last member) all move
    down to position `at`? Every use of their results from outside must come later, and
    no op between their first member and `at` may be a barrier."""
    if barriers[at] - barriers[min(g.first, new.first)]:
        return False
    for grp in (g, new):  # uses from the group itself are gone for good
        while grp.uses and group_of.get(grp.uses[0][2]) is grp:
            heapq.heappop(grp.uses)
    other = {id(g): new, id(new): g}
    held = []
    ok = True
    for grp in (g, new):
        while grp.uses and group_of.get(grp.uses[0][2]) is other[id(grp)]:
            held.append((grp, heapq.heappop(grp.uses)))
        if grp.uses and grp.uses[0][0] <= at:
            ok = False
    if not ok:  # the other group's uses stay outside uses if the two do not merge
        for grp, e in held:
            heapq.heappush(grp.uses, e)
    return ok


def _merge(a, b, group_of):
    """One group of a and b (the larger absorbs the smaller)."""
    big, small = (a, b) if len(a.members) >= len(b.members) else (b, a)
    big.members.extend(small.members)
    for e in small.uses:
        heapq.heappush(big.uses, e)
    for m in small.members:
        group_of[m] = big
    big.closed = big.closed or small.closed
    big.first = min(big.first, small.first)
    return big


def _in_block(op, block):
    """The op of `block` that is op or holds it (None if op is elsewhere)."""
    while op is not None and op.parent is not block:
        op = op.parent_op()
    return op


def _worth_fusing(g, min_elementwise) -> bool:
    n = sum(kind(m.name) == "elementwise" for m in g.members)
    return len(g.members) >= 2 and n >= max(min_elementwise, 1)


def _build(g, block, at=None) -> None:
    """The group's `tensor.fused` op, placed before `at` (default: its last member), with
    that op's location (where its errors are reported)."""
    members = g.members
    inside = set(members)
    inputs, const_ops = [], []
    for m in members:
        for v in m.operands:
            d = getattr(v, "op", None)
            if d in inside or v in inputs or d in const_ops:
                continue
            if isinstance(d, ConstOp) and region_op_problem(d) is None:
                const_ops.append(d)
            else:
                inputs.append(v)
    outputs = [r for m in members for r in m.results
               if any(u.op not in inside for u in r.uses)]
    if not outputs:  # unused, but it still runs (and may raise) as the unfused ops would
        outputs = list(members[-1].results)
    body = Block([v.type for v in inputs], [v.name for v in inputs])
    mapping = dict(zip(inputs, body.args))
    for c in const_ops:
        body.append(c.clone(mapping))
    for m in members:
        body.append(m.clone(mapping))
    last = members[-1]
    body.append(YieldOp([mapping[r] for r in outputs], (), None, (), last.loc))
    place = last if at is None else at  # the group's line is its place's
    fused = FusedOp(inputs, [r.type for r in outputs], None, [Region(body)], place.loc,
                    [r.name for r in outputs])
    block.insert_before(place, fused)
    for r, new in zip(outputs, fused.results):
        r.replace_all_uses_with(new)
    for m in reversed(members):
        m.erase()
    for c in const_ops:
        if not c.result.uses:
            c.erase()


def unfuse(module) -> bool:
    """Put every fused group's ops back in place of its `tensor.fused` op (the inverse of
    the pass: the region holds the original ops in order). For transformations that work
    on kernel ops, such as differentiating an optimized function again."""
    fused = [op for f in funcs(module) for op in f.walk() if isinstance(op, FusedOp)]
    for op in fused:
        block = op.parent
        mapping = dict(zip(op.body.args, op.operands))
        for inner in op.body.ops[:-1]:
            block.insert_before(op, inner.clone(mapping))
        op.replace_with([mapping[v] for v in op.body.ops[-1].operands])
    return bool(fused)
