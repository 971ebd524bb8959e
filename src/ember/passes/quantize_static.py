"""quantize-static: post-training static int8 quantization of a frozen IR module.

1. find: every `tensor.conv2d` / `tensor.linear` with a constant float32 weight (batch
   norms were folded by freezing) is a candidate; a `tensor.relu` that is its result's only
   use besides shape queries is fused into it.
2. calibrate: a copy of the module gets a `tensor.quant_observe` after the input and the
   output (after the fused ReLU) of every candidate; the caller runs it over the user's
   batches and each observer (ember.quant.observers) gives the value's qparams. One IR
   value has one observer, so a convolution's output and the next one's input share
   their qparams, and an input that is a view of a candidate's output (through flatten,
   max pooling, ...: passes/quantize_views.py) takes that output's, as in torch.ao.
3. rewrite: each candidate becomes quantize -> quantized op (int8 weights, per channel or
   per tensor; bias float32; fbgemm's requantization) -> dequantize, and a quantize of a
   dequantize with the same qparams (conv -> relu -> conv) is dropped, so the chain runs
   on uint8 codes. Everything else stays float between them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ember.ir import KernelOp
from ember.ir import types as T
from ember.ir.ops import ConstOp, ListNewOp
from ember.passes.quantize import (_SHAPE_USES, _Consts, _base_name, _drop_if_dead,
                                   _unwiden, quantize_weight, tensor_const)
from ember.passes.quantize_views import codes_through_views, view_source
from ember.passes.util import all_ops, funcs


@dataclass
class Candidate:
    op: object
    relu: object
    x: object
    y: object
    """The float output: the fused relu's result, or the op's."""
    other: object = None
    """An add's second operand (x is its first)."""
    xq: object = None
    """The value whose qparams x takes: x, or the candidate output x is a view of
    (passes/quantize_views.py)."""


def _int_list(v):
    """A constant int or list of ints (list.new / tuple.new of consts, through widen)."""
    op = getattr(_unwiden(v), "op", None)
    if isinstance(op, ConstOp) and isinstance(op.value, int) and \
            not isinstance(op.value, bool):
        return op.value
    if op is not None and op.name in ("list.new", "tuple.new"):
        vals = [_int_list(x) for x in op.operands]
        return vals if all(isinstance(x, int) for x in vals) else None
    return None


def _fused_relu(op):
    users = [u.op for u in op.result.uses if u.op.name not in _SHAPE_USES]
    if len(users) == 1 and users[0].name == "tensor.relu" and users[0].parent is op.parent:
        return users[0]
    return None


def find(module):
    """The candidates in program order, with why each other conv / linear stays float."""
    found, refused = [], []
    for f in funcs(module):
        for op in all_ops(f):
            if op.name not in ("tensor.conv2d", "tensor.linear"):
                continue
            w = tensor_const(module, op.operands[1])
            b = tensor_const(module, op.operands[2])
            ndim = 4 if op.name == "tensor.conv2d" else 2
            if not isinstance(w, np.ndarray) or w.dtype != np.float32 or w.ndim != ndim or \
                    b is False:
                refused.append((op, "weight is not a constant float32 tensor"))
                continue
            if op.name == "tensor.conv2d" and \
                    any(_int_list(v) is None for v in op.operands[3:7]):
                refused.append((op, "stride, padding ('same'?), dilation or groups not "
                                    "constant integers"))
                continue
            relu = _fused_relu(op)
            found.append(Candidate(op, relu, op.operands[0],
                                   relu.result if relu is not None else op.result))
    found += _adds(module, {id(c.y) for c in found})
    outputs = {id(c.y) for c in found}
    for c in found:
        c.xq = view_source(module, c.x, outputs) or c.x
    return found, refused


def _adds(module, outputs):
    """Adds of two quantized ops' outputs (a residual connection), each with its fused
    ReLU: they run on codes too."""
    adds = []
    for f in funcs(module):
        for op in all_ops(f):
            if op.name == "tensor.add" and all(id(v) in outputs for v in op.operands):
                relu = _fused_relu(op)
                adds.append(Candidate(op, relu, op.operands[0],
                                      relu.result if relu is not None else op.result,
                                      op.operands[1]))
    return adds


def observed_values(cands):
    """The distinct values to observe (inputs and outputs), in order."""
    seen, out = set(), []
    for c in cands:
        for v in (c.xq, c.other, c.y) if c.other is not None else (c.xq, c.y):
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
    return out


def instrument(module, cands, slot_base):
    """Insert `tensor.quant_observe(v, slot)` after each observed value's definition;
    slots are slot_base + the value's index in observed_values(cands)."""
    for i, v in enumerate(observed_values(cands)):
        op = getattr(v, "op", None)
        if op is not None:
            block, after = op.parent, op
        else:  # a block argument (the function's input)
            block = v.block
            after = None
        c = ConstOp((), [T.I64], {"value": slot_base + i}, (), cands[0].op.loc)
        obs = KernelOp("tensor.quant_observe", [v, c.result], [T.NONE], None,
                       cands[0].op.loc)
        if after is None:
            first = block.ops[0]
            block.insert_before(first, c)
            block.insert_before(first, obs)
        else:
            nxt = _next(after)
            block.insert_before(nxt, c)
            block.insert_before(nxt, obs)


def _next(op):
    ops = op.parent.ops
    return ops[ops.index(op) + 1]


def rewrite(module, cands, qparams, per_channel, report):
    """Replace every candidate with its int8 form; qparams[i] is the (scale, zero point) of
    observed_values(cands)[i]."""
    index = {id(v): i for i, v in enumerate(observed_values(cands))}
    for c in cands:
        s_in, z_in = qparams[index[id(c.xq)]]
        s_out, z_out = qparams[index[id(c.y)]]
        if c.other is not None:
            _rewrite_add(module, c, (s_in, z_in), qparams[index[id(c.other)]], s_out, z_out,
                         report)
        else:
            _rewrite_one(module, c, s_in, z_in, s_out, z_out, per_channel, report)
    _drop_requantize_pairs(module)
    from ember.passes.quantize_pool import pool_codes
    pool_codes(module)
    codes_through_views(module)
    _drop_dead_conversions(module)


def _rewrite_one(module, c, s_in, z_in, s_out, z_out, per_channel, report):
    op = c.op
    w = tensor_const(module, op.operands[1])
    q, s = quantize_weight(w, per_channel)
    k = _Consts(module, op, _base_name(op.operands[1]))
    f64 = lambda v: k.value(float(v), T.F64)  # noqa: E731
    i64 = lambda v: k.value(int(v), T.I64)  # noqa: E731
    u8 = T.TensorType("u8")
    xq = KernelOp("tensor.quantize_per_tensor",
                  [op.operands[0], f64(s_in), i64(z_in), k.value("quint8", T.STR)], [u8],
                  None, op.loc)
    op.parent.insert_before(op, xq)
    common = [xq.result, f64(s_in), i64(z_in), k.tensor(q, "int8"), k.tensor(s, "scale"),
              op.operands[2], f64(s_out), i64(z_out)]
    if op.name == "tensor.conv2d":
        ints = [_int_list(v) for v in op.operands[3:7]]
        lists = [k._insert(ListNewOp([i64(x) for x in (v if isinstance(v, list) else [v, v])],
                                     [T.ListType(T.I64)], None, (), op.loc))
                 for v in ints[:3]]
        new = KernelOp("tensor.quantized_conv2d",
                       common + lists + [i64(ints[3]), k.value(c.relu is not None, T.BOOL)],
                       [u8], None, op.loc)
    else:
        new = KernelOp("tensor.quantized_linear",
                       common + [k.value(c.relu is not None, T.BOOL)], [u8], None, op.loc)
    op.parent.insert_before(op, new)
    deq = KernelOp("tensor.dequantize_codes", [new.result, f64(s_out), i64(z_out)],
                   [c.y.type], None, op.loc)
    op.parent.insert_before(op, deq)
    old = list(op.operands)
    if c.relu is not None:
        c.relu.result.replace_all_uses_with(deq.result)
        c.relu.erase()
    else:
        for u in [u for u in op.result.uses if u.op.name not in _SHAPE_USES]:
            u.op.set_operand(u.index, deq.result)
    op.result.replace_all_uses_with(new.result)  # shape queries only, when fused
    op.erase()
    for v in old:
        _drop_if_dead(v)
    what = "conv2d" if op.name == "tensor.conv2d" else "linear"
    report.add(op, True, f"static int8 {what}{' + relu' if c.relu is not None else ''}, "
               f"in ({s_in:.3g}, {z_in}) out ({s_out:.3g}, {z_out})", w.nbytes,
               q.nbytes + s.nbytes)


def _rewrite_add(module, c, qa, qb, s_out, z_out, report):
    op = c.op
    k = _Consts(module, op, "quant")
    f64 = lambda v: k.value(float(v), T.F64)  # noqa: E731
    i64 = lambda v: k.value(int(v), T.I64)  # noqa: E731
    u8 = T.TensorType("u8")
    codes = []
    for v, (s, z) in zip(op.operands, (qa, qb)):
        q = KernelOp("tensor.quantize_per_tensor", [v, f64(s), i64(z),
                                                    k.value("quint8", T.STR)], [u8], None,
                     op.loc)
        op.parent.insert_before(op, q)
        codes += [q.result, f64(s), i64(z)]
    new = KernelOp("tensor.quantized_add", codes + [f64(s_out), i64(z_out),
                                                    k.value(c.relu is not None, T.BOOL)],
                   [u8], None, op.loc)
    op.parent.insert_before(op, new)
    deq = KernelOp("tensor.dequantize_codes", [new.result, f64(s_out), i64(z_out)],
                   [c.y.type], None, op.loc)
    op.parent.insert_before(op, deq)
    if c.relu is not None:
        c.relu.result.replace_all_uses_with(deq.result)
        c.relu.erase()
        op.result.replace_all_uses_with(new.result)  # shape queries only
    else:
        op.result.replace_all_uses_with(deq.result)
    op.erase()
    report.add(op, True, f"static int8 add{' + relu' if c.relu is not None else ''}, "
               f"out ({s_out:.3g}, {z_out})")


def _const_of(v):
    op = getattr(v, "op", None)
    return op.value if isinstance(op, ConstOp) else None


def _drop_requantize_pairs(module):
    """quantize(dequantize(q, s, z), s, z) -> q: exact for codes (|q - z| <= 255)."""
    for f in funcs(module):
        for op in all_ops(f):
            if op.name != "tensor.quantize_per_tensor" or op.parent is None:
                continue
            src = getattr(op.operands[0], "op", None)
            if src is None or src.name != "tensor.dequantize_codes":
                continue
            if _const_of(src.operands[1]) == _const_of(op.operands[1]) and \
                    _const_of(src.operands[2]) == _const_of(op.operands[2]) and \
                    _const_of(op.operands[1]) is not None:
                op.result.replace_all_uses_with(src.operands[0])
                old = list(op.operands)
                op.erase()
                for v in old:
                    _drop_if_dead(v)
    _drop_dead_conversions(module)


_CONVERSIONS = frozenset({"tensor.quantize_per_tensor", "tensor.dequantize_codes"})


def _drop_dead_conversions(module):
    """Erase the unused quantize / dequantize ops the rewrite made (tensor operators are
    impure, so DCE keeps them)."""
    changed = True
    while changed:
        changed = False
        for f in funcs(module):
            for op in all_ops(f):
                if op.name in _CONVERSIONS and op.parent is not None and not op.result.uses:
                    old = list(op.operands)
                    op.erase()
                    for v in old:
                        _drop_if_dead(v)
                    changed = True
