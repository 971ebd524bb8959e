"""IRBuilder: create ops at an insertion point, with a current location."""

from __future__ import annotations

from contextlib import contextmanager

from ember.ir import types as T
from ember.ir.core import Block, Loc, Op, Region
from ember.ir.ops import ConstOp, KernelOp, YieldOp, create_op


class IRBuilder:
    """Appends ops to a block (or inserts before an anchor op)."""

    def __init__(self, block: Block | None = None, loc: Loc | None = None):
        self.block = block
        self.before: Op | None = None
        self.loc = loc or Loc.unknown()

    # -- insertion point ---------------------------------------------------------------------
    def set_insertion_end(self, block: Block) -> None:
        self.block, self.before = block, None

    def set_insertion_before(self, op: Op) -> None:
        self.block, self.before = op.parent, op

    @contextmanager
    def at_end(self, block: Block):
        saved = (self.block, self.before)
        self.set_insertion_end(block)
        try:
            yield self
        finally:
            self.block, self.before = saved

    @contextmanager
    def at_loc(self, loc: Loc):
        saved = self.loc
        self.loc = loc
        try:
            yield self
        finally:
            self.loc = saved

    def insert(self, op: Op) -> Op:
        if self.before is not None:
            self.block.insert_before(self.before, op)
        else:
            self.block.append(op)
        return op

    # -- creation helpers -----------------------------------------------------------------------
    def create(self, name: str, operands=(), result_types=(), attrs=None, regions=(),
               loc: Loc | None = None, names=None) -> Op:
        return self.insert(create_op(name, list(operands), list(result_types), attrs or {},
                                     list(regions), loc or self.loc, names))

    def const(self, value, type: T.Type, loc: Loc | None = None, name=None):
        return self.insert(ConstOp((), [type], {"value": value}, (), loc or self.loc,
                                   [name])).result

    def kernel(self, name: str, operands, result_type: T.Type, loc: Loc | None = None,
               result_name=None):
        op = KernelOp(name, list(operands), [result_type], None, loc or self.loc, [result_name])
        return self.insert(op).result

    def yield_(self, values=(), loc: Loc | None = None) -> Op:
        return self.insert(YieldOp(list(values), (), None, (), loc or self.loc))


def new_region(arg_types=(), arg_names=None) -> Region:
    return Region(Block(list(arg_types), arg_names))
