"""Kernel ops against their `ember.ops` schemas: arity and operand/result types."""

from __future__ import annotations


def check_kernel_op(op) -> None:
    """Raise VerifyError if kernel op `op` does not fit its operator's schema."""
    from ember.ir.ops import fail

    d = op.opdef
    if d is None:
        fail(op, "names no registered operator")
    n = len(d.schema.params)
    if len(op.operands) != n:
        fail(op, f"takes {n} operands ({d.schema_text}), has {len(op.operands)}")
