"""Whether a module's code can write into a tensor in place.

A program that cannot (no `x.add_(...)`, `x[i] = v`, `relu(x, inplace=True)`, ...) gets
read-only weights at load, and the runtime may cache layouts derived from them (the
weight caches of ops/tensor_common.py). A program that can keeps writable weights, so an
in-place update of a buffer persists across calls, as in torch. The answer is recorded in
the Program (`mutable_tensors`) and the artifact, and both the in-process runtime and
`ember.mobile.load` follow it, so a program computes the same bits in process and after
save -> load.
"""

from __future__ import annotations

from ember import ops
from ember.ir.ops import ConstOp, KernelOp

_WRITES = frozenset({"tensor.index_put", "tensor.index_put_scalar"})
"""Tensor operators that write into their first operand although their names do not end
in "_" (item and slice assignment)."""


def mutates_tensors(module) -> bool:
    """True if some kernel op of `module` may write into a tensor that is not one it made
    itself (`out += identity` on a convolution's result writes no weight)."""
    return any(isinstance(op, KernelOp) and writes_tensor(op) and not writes_fresh(op)
               for op in module.walk())


def writes_tensor(op) -> bool:
    """May kernel op `op` write into one of its tensor operands?"""
    name = op.name
    if not name.startswith("tensor."):
        return False
    if name.endswith("_") or name in _WRITES:
        return True
    d = ops.get(name)
    if d is None:
        return True
    return any(p.name in ("inplace", "out") and i < len(op.operands) and
               not _const_in(op.operands[i], (False, None))
               for i, p in enumerate(d.schema.params))


def writes_fresh(op) -> bool:
    """Does in-place op `op` (`x.add_(y)`, `x[i] = v`, `relu(x, inplace=True)`) write only
    into its first operand, a tensor made in the program by an operator that returns a
    new tensor (fresh_tensor)? Such a write cannot reach a loaded weight."""
    d = ops.get(op.name)
    if d is None or not op.operands:
        return False
    if any(p.name == "out" and i < len(op.operands) and not _const_in(op.operands[i], (None,))
           for i, p in enumerate(d.schema.params)):
        return False
    return fresh_tensor(op.operands[0])


def fresh_tensor(v, depth: int = 0) -> bool:
    """Is v a tensor that no other value aliases when it is made: the result of an
    elementwise operator or of one in FRESH (never a view, an operand returned as it is,
    a weight, a parameter or an element of a container), or of an in-place update of
    such a tensor, or the value a fused group of them yields?"""
    op = getattr(v, "op", None)
    if op is None or depth > 64:
        return False
    if op.name in ("widen", "narrow"):
        return fresh_tensor(op.operands[0], depth + 1)
    if op.name == "tensor.fused":
        term = op.regions[0].block.ops[-1]
        return bool(term.operands) and fresh_tensor(term.operands[0], depth + 1)
    if not isinstance(op, KernelOp):
        return False
    if writes_tensor(op):
        return op.name.endswith("_") and writes_fresh(op)
    d = ops.get(op.name)
    return d is not None and (d.elementwise or op.name in FRESH)


FRESH = frozenset("tensor." + n for n in """
    conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d mul_conv2d
    linear matmul mm bmm addmm baddbmm addbmm addmv mv outer bilinear
    batch_norm layer_norm group_norm instance_norm rms_norm local_response_norm
    cat stack hstack vstack dstack column_stack
    zeros ones full empty zeros_like ones_like full_like empty_like zeros_seq ones_seq
    full_seq empty_seq new_zeros new_ones new_full new_empty new_zeros_seq new_ones_seq
    new_full_seq new_tensor rand randn randint rand_like randn_like rand_seq randn_seq
    randint_seq randperm arange arange_range linspace logspace eye scalar_tensor clone
    from_bool from_bools from_float from_floats from_int from_ints from_complex
    from_complexes from_nested_bools from_nested_floats from_nested_ints
    from_nested_complexes from_nested3_bools from_nested3_floats from_nested3_ints
    from_nested4_bools from_nested4_floats from_nested4_ints
    sum mean prod softmax log_softmax tanh clamp clamp_min clamp_max where masked_fill
    max_pool1d max_pool2d max_pool3d avg_pool1d avg_pool2d avg_pool3d
    adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d
    adaptive_max_pool2d adaptive_max_pool3d interpolate upsample_bilinear
    upsample_nearest embedding cumsum cumprod""".split())
"""Operators whose result is always a new tensor (fresh_tensor), besides the elementwise
ones: a write into it reaches no other value that existed before it."""


def _const_in(v, values) -> bool:
    c = getattr(v, "op", None)
    return isinstance(c, ConstOp) and any(c.value is x for x in values)
