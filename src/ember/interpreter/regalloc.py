"""Register allocation for structured SSA: linear scan over a pre-order numbering.

Every op gets a start position (pre-order) and an end position (after its
regions). A value lives from its definition to its last use; a use inside a
loop that does not contain the definition extends the value to that loop's
end (the value must survive every iteration). Structured ops fix some
registers up front:

- a loop's carried values share one register per slot: the loop's results and
  the carried block arguments of its body/cond/else regions (live from the loop's
  start to the later of the loop's end and the results' last use);
- a `for` loop's induction variable gets one register for the whole loop;
- `if`/`try` results get registers at the op's start (written by the yields);
- constants are hoisted: one register per distinct constant, live for the whole
  function (loaded once at entry).

A value whose only use is as operand k of its own loop body's `yield` (or a
`break`/`continue` of that loop), defined at the top level of the body after
the last use of carried slot k's block argument, is coalesced into slot k's
register, so `acc = acc + i` needs no move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ember.ir.core import Op, OpResult, Value
from ember.ir import types as T
from ember.ir.ops import (
    BreakOp, ConditionOp, ConstOp, ContinueOp, ForOp, FuncOp, FusedOp, IfOp, TryOp, YieldOp,
    _LoopOp,
)


def walk_lowered(op):
    """op and the ops nested in it that lower to instructions of their own: a fused
    group's region lowers to the group's constant, not to instructions."""
    yield op
    if isinstance(op, FusedOp):
        return
    for r in op.regions:
        for inner in list(r.block.ops):
            yield from walk_lowered(inner)


@dataclass
class Allocation:
    """The result: a register per value, the constant table and the register count."""

    reg: dict = field(default_factory=dict)
    """Value -> register number."""
    consts: list = field(default_factory=list)
    """(register, ConstOp) for every hoisted constant, in load order."""
    nregs: int = 0
    last_use: dict = field(default_factory=dict)
    """Value -> position of its (loop-extended) last use."""
    pos: dict = field(default_factory=dict)
    """Op -> (start, end) positions."""


def allocate(f: FuncOp) -> Allocation:
    return _Allocator(f).run()


def _lowered_regions(op) -> list:
    return [] if isinstance(op, FusedOp) else op.regions


def _is_branch_condition(v) -> bool:
    """v's only use is the if/condition op right after its definition."""
    if len(v.uses) != 1 or v.type != T.BOOL:
        return False
    user = v.uses[0].op
    if not isinstance(user, (IfOp, ConditionOp)) or user.parent is not v.op.parent:
        return False
    ops = user.parent.ops
    return ops.index(user) == ops.index(v.op) + 1


def const_key(op: ConstOp):
    v = op.value
    # 1 == 1.0 == True in Python: key on the type too; -0.0 vs 0.0 and NaN by repr.
    return (str(op.result.type), type(v).__name__, repr(v))


class _Allocator:
    def __init__(self, f: FuncOp):
        self.f = f
        self.a = Allocation()
        self.counter = 0
        self.loops_of: dict[Op, list[Op]] = {}
        self.discard = None
        self.fixed_groups: list[tuple[list[Value], int, int]] = []

    def run(self) -> Allocation:
        self._number(self.f.body, [])
        self._liveness()
        self._assign()
        return self.a

    # -- positions ----------------------------------------------------------------------------
    def _number(self, block, loops) -> None:
        for op in block.ops:
            start = self.counter
            self.counter += 1
            self.loops_of[op] = loops
            inner = loops + [op] if isinstance(op, _LoopOp) else loops
            for r in _lowered_regions(op):
                self._number(r.block, inner)
            self.a.pos[op] = (start, self.counter)
            self.counter += 1

    def _def_pos(self, v: Value) -> int:
        if isinstance(v, OpResult):
            return self.a.pos[v.op][0]
        owner = v.block.parent.parent if v.block.parent else None
        if owner is None or isinstance(owner, FuncOp):
            return -1
        return self.a.pos[owner][0]

    def _use_pos(self, v: Value, user: Op) -> int:
        p = self.a.pos[user][0]
        d = self._def_pos(v)
        for loop in self.loops_of[user]:
            ls, le = self.a.pos[loop]
            if not ls <= d < le:        # the loop does not contain the definition
                p = max(p, le)
                break                   # loops_of is outermost first
        return p

    def _liveness(self) -> None:
        for op in walk_lowered(self.f):
            for v in op.operands:
                p = self._use_pos(v, op)
                if p > self.a.last_use.get(v, -2):
                    self.a.last_use[v] = p

    # -- assignment ---------------------------------------------------------------------------
    def _assign(self) -> None:
        nparams = len(self.f.args)
        for i, arg in enumerate(self.f.args):
            self.a.reg[arg] = i
        self.next_reg = nparams
        self.free: list[int] = []
        self.active: list[tuple[int, int]] = []   # (last position, register)
        for i, arg in enumerate(self.f.args):
            self.active.append((self.a.last_use.get(arg, -1), i))
        self._hoist_consts()
        self._walk(self.f.body)
        self.a.nregs = self.next_reg

    def _hoist_consts(self) -> None:
        seen = {}
        end = self.counter
        for op in walk_lowered(self.f):
            if isinstance(op, ConstOp):
                key = const_key(op)
                if key not in seen:
                    seen[key] = self._new_reg(end)
                    self.a.consts.append((seen[key], op))
                self.a.reg[op.result] = seen[key]

    def _private_reg(self) -> int:
        """A register used by this value alone: the translator can then fold a compare
        into the `if`/`while` that reads it."""
        r = self.next_reg
        self.next_reg += 1
        return r

    def _discard_reg(self) -> int:
        """One register, never read, for the unused None results of side-effect ops."""
        if self.discard is None:
            self.discard = self._private_reg()
        return self.discard

    def _new_reg(self, until: int) -> int:
        if self.free:
            r = min(self.free)
            self.free.remove(r)
        else:
            r = self.next_reg
            self.next_reg += 1
        self.active.append((until, r))
        return r

    def _expire(self, pos: int) -> None:
        keep = []
        for last, r in self.active:
            if last < pos:
                self.free.append(r)
            else:
                keep.append((last, r))
        self.active = keep

    def _take(self, v: Value, pos: int) -> None:
        if v in self.a.reg:
            return
        self.a.reg[v] = self._new_reg(max(self.a.last_use.get(v, pos), pos))

    def _walk(self, block) -> None:
        for op in block.ops:
            start, end = self.a.pos[op]
            self._expire(start)
            if isinstance(op, _LoopOp):
                self._loop_regs(op, start, end)
            elif isinstance(op, (IfOp, TryOp)):
                # The yields write the results at their regions' ends: a result's
                # register is reserved over the whole op, even when nothing reads it.
                for r in op.results:
                    self._take(r, end)
                if isinstance(op, IfOp):
                    self._coalesce_yields(op)
            for region in _lowered_regions(op):
                for arg in region.block.args:
                    self._take(arg, start)
                self._walk(region.block)
            if not _lowered_regions(op) and not isinstance(op, ConstOp):
                # Operands dying here may donate their register to the result:
                # every instruction reads its operands before writing its result.
                self._expire(start + 1)
                for r in op.results:
                    if _is_branch_condition(r):
                        self.a.reg[r] = self._private_reg()
                    elif not r.uses and r.type == T.NONE:
                        self.a.reg[r] = self._discard_reg()
                    else:
                        self._take(r, start)

    def _loop_regs(self, op: _LoopOp, start: int, end: int) -> None:
        slots = []
        for k, res in enumerate(op.results):
            last = max(end, self.a.last_use.get(res, end))
            reg = self._new_reg(last)
            self.a.reg[res] = reg
            slots.append(reg)
        skip = 1 if isinstance(op, ForOp) else 0
        if isinstance(op, ForOp):
            self.a.reg[op.body.block.args[0]] = self._new_reg(end)
        for region in op.regions:
            for k, arg in enumerate(region.block.args[skip if region is op.body else 0:]):
                self.a.reg[arg] = slots[k]
        self._coalesce(op, slots, skip)

    def _coalesce_yields(self, op: IfOp) -> None:
        """A value computed by a region's top-level op only to be yielded as result k takes
        result k's register, so `acc = acc + k` in a branch needs no move. The register is
        reserved for the result over the whole `if`; it may also hold a loop-carried value
        (see _coalesce), so no value holding it may be read after the def in the region."""
        for region in op.regions:
            term = region.block.ops[-1]
            if not isinstance(term, YieldOp):
                continue
            for k, v in enumerate(term.operands):
                reg = self.a.reg[op.results[k]]
                if isinstance(v, OpResult) and v.op.parent is region.block and \
                        v.has_one_use() and not v.op.regions and v not in self.a.reg and \
                        not isinstance(v.op, ConstOp) and \
                        not self._read_after(v.op, region.block, reg):
                    self.a.reg[v] = reg

    def _read_after(self, op, block, reg: int) -> bool:
        """Does an op after `op` in block (or nested in one) read a value held in reg?"""
        later = block.ops[block.ops.index(op) + 1:]
        return any(self.a.reg.get(v) == reg for o in later for inner in o.walk()
                   for v in inner.operands)

    def _coalesce(self, op: _LoopOp, slots, skip: int) -> None:
        body = op.body.block
        term = body.ops[-1]
        if not isinstance(term, (YieldOp, BreakOp, ContinueOp)):
            return
        for k, v in enumerate(term.operands):
            if not (isinstance(v, OpResult) and v.op.parent is body and v.has_one_use()):
                continue
            if isinstance(v.op, (ConstOp, TryOp)) or v in self.a.reg:
                continue
            arg = body.args[skip + k]
            arg_last = self.a.last_use.get(arg, -1)
            start, end = self.a.pos[v.op]
            # A simple op reads its operands before writing; an if writes its result at
            # the end of each region, after every read inside that region.
            if arg_last <= (end if isinstance(v.op, IfOp) else start):
                self.a.reg[v] = slots[k]
