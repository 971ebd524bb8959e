"""fuse-epilogue: a convolution and the activation that alone reads its result become one
`tensor.fused` group, which a native backend runs as one kernel (the LLVM backend computes
relu in the product's epilogue: llvm/fused.py, kernel_gemm.py). Linear layers stay
unpaired: their outputs are small where the epilogue would pay (the bench MLP at batch 1
ran 0.023 ms paired against 0.020 unpaired: the group's dispatch costs more than the
relu pass it saves).

The general `fuse` pass forms such a pair only with `min_elementwise=1`, which also makes
one-op groups of every elementwise op beside a reduction; this pass makes only the pairs.
A pair forms when the activation (EPILOGUES, its `inplace` flag the constant False) reads
the producer's result, nothing else reads it, both are in one block, and no op between
them writes a tensor or calls a function (the producer moves down to the activation).
The group holds the two ops in order, so the VM runs them as before (mobile/fused.py
runs a producer step by its kernel): results are the unfused ops', bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.ops import FusedOp, KernelOp
from ember.ops.fusion import region_op_problem
from ember.passes.fuse import _barrier, _build
from ember.passes.registry import Pass
from ember.passes.util import funcs

EPILOGUES = frozenset({"tensor.relu"})
"""Activations a producer's epilogue computes natively."""
PRODUCERS = frozenset({"tensor.conv2d"})
"""Producers paired with their activation (ember.ops.fusion.PRODUCERS holds them)."""


@dataclass
class FuseEpilogue(Pass):
    name = "fuse-epilogue"

    def run(self, module) -> bool:
        changed = False
        for f in funcs(module):
            changed |= _fuse_block(f.body)
        return changed


class _Pair:
    __slots__ = ("members",)

    def __init__(self, producer, activation):
        self.members = [producer, activation]


def _fuse_block(block) -> bool:
    changed = False
    for op in list(block.ops):
        if not isinstance(op, FusedOp):
            for r in op.regions:
                changed |= _fuse_block(r.block)
    pairs = []
    pos = {op: i for i, op in enumerate(block.ops)}
    for op in block.ops:
        prod = _producer_of(op, block)
        if prod is not None and not any(_barrier(o) for o in block.ops[pos[prod] + 1:pos[op]]):
            pairs.append(_Pair(prod, op))
    for p in pairs:
        _build(p, block)
    return changed or bool(pairs)


def _producer_of(op, block):
    """The producer op whose epilogue `op` can be, or None."""
    if not isinstance(op, KernelOp) or op.name not in EPILOGUES or len(op.results) != 1 or \
            not op.operands or region_op_problem(op):
        return None
    src = op.operands[0]
    prod = getattr(src, "op", None)
    if not isinstance(prod, KernelOp) or prod.parent is not block or \
            prod.name not in PRODUCERS or len(prod.results) != 1 or region_op_problem(prod):
        return None
    if any(u.op is not op for u in src.uses) or src in op.operands[1:]:
        return None
    return prod
