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
    """True if some kernel op of `module` may write into a tensor operand."""
    return any(isinstance(op, KernelOp) and writes_tensor(op) for op in module.walk())


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


def _const_in(v, values) -> bool:
    c = getattr(v, "op", None)
    return isinstance(c, ConstOp) and any(c.value is x for x in values)
