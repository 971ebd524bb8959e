"""fuse-epilogue: a convolution and the activation that alone reads its result become one
`tensor.fused` group, which a native backend runs as one kernel (the LLVM backend computes
relu, hardswish or hardsigmoid in the product's or the depthwise loop's epilogue:
llvm/fused.py, kernel_gemm.py, kernel_conv.py). Linear layers stay
unpaired: their outputs are small where the epilogue would pay (the bench MLP at batch 1
ran 0.023 ms paired against 0.020 unpaired: the group's dispatch costs more than the
relu pass it saves).

The general `fuse` pass forms such a pair only with `min_elementwise=1`, which also makes
one-op groups of every elementwise op beside a reduction; this pass makes only the pairs.
A pair forms when the activation (EPILOGUES, its `inplace` flag the constant False) reads
the producer's result, nothing else reads it but for its shape (tensor.size and the like:
those then read the activation's result, of the same shape), both are in one block, and
no op between them writes a tensor or calls a function. The group takes the producer's
place and line (the activation moves up to it: its other operands are constants; the
producer's errors keep its line). The group holds the two ops in order, so the VM runs them as before (mobile/fused.py
runs a producer step by its kernel): results are the unfused ops', bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.ops import ConstOp, FusedOp, KernelOp
from ember.ops.fusion import region_op_problem
from ember.passes.fuse import _barrier, _build
from ember.passes.registry import Pass
from ember.passes.util import funcs

EPILOGUES = frozenset({"tensor.relu", "tensor.hardswish", "tensor.hardsigmoid"})
"""Activations a producer's epilogue computes natively (llvm/fused.py EPILOGUE_ACTS)."""
SHAPE_READS = frozenset({"tensor.size", "tensor.size_dim", "tensor.dim", "tensor.numel"})
"""Operators that read only a tensor's shape, which an activation keeps."""
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
        prod, act = p.members
        src = prod.results[0]
        for use in list(src.uses):  # shape reads: the activation's result has the same
            if use.op is not act:
                use.op.set_operand(use.index, act.results[0])
        _build(p, block, at=prod)
    return changed or bool(pairs)


def _producer_of(op, block):
    """The producer op whose epilogue `op` can be, or None: `op` reads its result, which
    nothing else reads but for its shape (SHAPE_READS), and every other operand of `op` is
    a constant (the group takes the producer's place: shape reads between the two, such
    as a batch norm's rank check, then read the group's result)."""
    if not isinstance(op, KernelOp) or op.name not in EPILOGUES or len(op.results) != 1 or \
            not op.operands or region_op_problem(op):
        return None
    src = op.operands[0]
    prod = getattr(src, "op", None)
    if not isinstance(prod, KernelOp) or prod.parent is not block or \
            prod.name not in PRODUCERS or len(prod.results) != 1 or region_op_problem(prod):
        return None
    if any(not isinstance(getattr(v, "op", None), ConstOp) for v in op.operands[1:]):
        return None
    for use in src.uses:
        if use.op is op:
            if use.index != 0:
                return None
        elif not (isinstance(use.op, KernelOp) and use.op.name in SHAPE_READS):
            return None
    return prod
