"""Static quantization through ops that keep their input's qparams (flatten, reshape,
views, max pooling, ... : ao_qparams._KEEP), as torch.ao does.

- `view_source`: the value a candidate's input is a view of through such ops (and calls
  of helpers that return a view of one argument, as nn's pooling layers' `_as_2d` /
  `_restore`), when that value is another candidate's output: the input then takes that
  output's qparams (passes/quantize_static.py observes it once) rather than an observer
  of its own after the views, so that no requantization sits between them.
- `codes_through_views`: after the rewrite, `quantize(V(dequantize(q, s, z)), s, z)` with
  V such a chain becomes V(q): the views run on the uint8 codes (the same values:
  quantize(dequantize(q)) with the same qparams is q, see _drop_requantize_pairs). The
  CNN's `conv -> max pool -> flatten -> linear` then runs on codes end to end.
"""

from __future__ import annotations

from ember.ir.ops import CallOp, ConstOp
from ember.passes.ao_qparams import _KEEP
from ember.passes.quantize import _SHAPE_USES, _drop_if_dead
from ember.passes.quantize_pool import _as_operand, _returns_view
from ember.passes.util import all_ops, funcs

_MAX_CHAIN = 64


def _view_step(module, v):
    """(op, operand index) of the op whose result v is a view of that operand, or None."""
    op = getattr(v, "op", None)
    if op is None:
        return None
    if op.name in _KEEP and op.operands and len(op.results) == 1:
        return op, 0
    if isinstance(op, CallOp) and op.callee in module.funcs:
        callee = module.funcs[op.callee]
        found = [i for i in range(len(op.operands)) if _returns_view(callee, i)]
        if len(found) == 1:
            return op, found[0]
    return None


def view_source(module, v, outputs):
    """The value in `outputs` (ids) that v is a view of, or None."""
    for _ in range(_MAX_CHAIN):
        if id(v) in outputs:
            return v
        step = _view_step(module, v)
        if step is None:
            return None
        v = step[0].operands[step[1]]
    return None


def _only_reader(value, reader):
    """True when every use of value is `reader` or a shape query."""
    return all(u.op is reader or u.op.name in _SHAPE_USES for u in value.uses)


def _const(v):
    op = getattr(v, "op", None)
    return op.value if isinstance(op, ConstOp) else None


def _chain(module, quant):
    """(dequantize op, [(op, operand index)] from it to the quantize's operand) when the
    quantize reads a view chain of a dequantize with its own qparams, each link read by
    the next only; else None."""
    links, v = [], quant.operands[0]
    reader = quant
    for _ in range(_MAX_CHAIN):
        if not _only_reader(v, reader):
            return None
        op = getattr(v, "op", None)
        if op is not None and op.name == "tensor.dequantize_codes":
            same = _const(op.operands[1]) is not None and \
                _const(op.operands[1]) == _const(quant.operands[1]) and \
                _const(op.operands[2]) == _const(quant.operands[2])
            return (op, links[::-1]) if same and links else None
        step = _view_step(module, v)
        if step is None or step[0].parent is not quant.parent:
            return None
        links.append(step)
        reader, v = step[0], step[0].operands[step[1]]
    return None


def codes_through_views(module) -> int:
    """Rewrite every such quantize; returns how many."""
    done = 0
    for f in funcs(module):
        for quant in all_ops(f):
            if quant.name != "tensor.quantize_per_tensor" or quant.parent is None:
                continue
            found = _chain(module, quant)
            if found is None:
                continue
            deq, links = found
            first, index = links[0]
            first.set_operand(index, _as_operand(module, first, index, deq.operands[0]))
            for u in list(deq.result.uses):  # shape queries: the codes have its shape
                u.op.set_operand(u.index, deq.operands[0])
            quant.result.replace_all_uses_with(quant.operands[0])
            old = list(quant.operands) + list(deq.operands[1:])
            quant.erase()
            deq.erase()
            for v in old:
                _drop_if_dead(v)
            done += 1
    return done
