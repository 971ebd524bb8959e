"""Max pooling on codes: `max_pool2d(dequantize_codes(q, s, z))` becomes
`dequantize_codes(max_pool2d(q), s, z)` (passes/quantize_static.py runs it after its
rewrite).

The same bits: dequantizing, `f32(f32(q) - f32(z)) * f32(s)` with s > 0, is monotone in
the code, so the maximum of the dequantized values is the dequantized maximum code; the
pooling of codes pads with code 0, the lowest, where the float pooling pads with -inf
(every window holds an input element: torch's rule, which both kernels check). The pool
then reads uint8 codes instead of float32 values, and the dequantize runs on its output,
a fraction of its input.

The pool's input may come through a call of a helper that returns a view of it (`nn`'s
pooling layers add a batch dimension to an unbatched input: `_as_2d`), and the
dequantized value may also be read for its shape only (directly or by a helper: the
layer's `_restore`); the codes, of the same shape, replace it there. Any other reader of
the dequantized value leaves the pool in float.
"""

from __future__ import annotations

from ember.ir import KernelOp
from ember.ir.ops import CallOp, ConstOp, ReturnOp, WidenOp
from ember.passes.ao_qparams import _KEEP
from ember.passes.quantize import _SHAPE_USES
from ember.passes.util import all_ops, funcs


def pool_codes(module) -> int:
    """Rewrite every such pool in place; returns how many."""
    done = 0
    for f in funcs(module):
        for op in all_ops(f):
            if op.name == "tensor.max_pool2d" and op.parent is not None:
                done += _rewrite(module, op)
    return done


def _rewrite(module, pool) -> bool:
    if len(pool.operands) < 7 or _const(pool.operands[6]) is not False:
        return False
    src = getattr(pool.operands[0], "op", None)
    via = None
    if isinstance(src, CallOp) and src.parent is pool.parent and \
            [u.op for u in src.result.uses if u.op.name not in _SHAPE_USES] == [pool]:
        via, src = src, _view_source(module, src)
    if src is None or src.name != "tensor.dequantize_codes" or src.parent is not pool.parent:
        return False
    uses = _replaceable_uses(module, src.result, via or pool)
    if uses is None:
        return False
    codes, scale, zp = src.operands
    for user, index in uses:
        user.set_operand(index, _as_operand(module, user, index, codes))
    deq = KernelOp("tensor.dequantize_codes", [pool.result, scale, zp], [src.result.type],
                   None, pool.loc)
    pool.parent.insert_before(_next(pool), deq)
    for u in [u for u in pool.result.uses if u.op is not deq]:
        u.op.set_operand(u.index, deq.result)
    src.erase()
    return True


def _as_operand(module, user, index, codes):
    """codes, widened to the callee's parameter type when user is a call."""
    p = _param(module.funcs[user.callee], index) if isinstance(user, CallOp) else None
    if p is None or p.type == codes.type:
        return codes
    w = WidenOp([codes], [p.type], None, (), user.loc)
    user.parent.insert_before(user, w)
    return w.result


def _view_source(module, call):
    """The dequantize op whose result is the one argument of `call` that the callee returns
    a view of, or None."""
    callee = module.funcs.get(call.callee)
    deqs = [(i, v.op) for i, v in enumerate(call.operands)
            if getattr(v, "op", None) is not None and v.op.name == "tensor.dequantize_codes"]
    if callee is None or len(deqs) != 1 or not _returns_view(callee, deqs[0][0]):
        return None
    return deqs[0][1]


def _replaceable_uses(module, value, reader):
    """(op, operand index) of every use of `value` when each is `reader`, a shape query or
    an argument the callee reads for its shape only; else None."""
    out = []
    for u in value.uses:
        op = u.op
        ok = op is reader or op.name in _SHAPE_USES or \
            (isinstance(op, CallOp) and op.callee in module.funcs and
             _shape_only(module.funcs[op.callee], u.index))
        if not ok:
            return None
        out.append((op, u.index))
    return out


def _param(func, index):
    args = func.regions[0].block.args
    return args[index] if index < len(args) else None


def _shape_only(func, index) -> bool:
    p = _param(func, index)
    return p is not None and all(u.op.name in _SHAPE_USES for u in p.uses)


def _returns_view(func, index) -> bool:
    """True when parameter `index` is read for its shape, through view ops (_KEEP), and
    returned, and every return of func returns such a view."""
    p = _param(func, index)
    if p is None:
        return False
    views, todo = set(), [p]
    while todo:
        v = todo.pop()
        views.add(id(v))
        for u in v.uses:
            if u.op.name in _KEEP:
                todo.extend(u.op.results)
            elif u.op.name not in _SHAPE_USES and not isinstance(u.op, ReturnOp):
                return False
    returns = [op for op in all_ops(func) if isinstance(op, ReturnOp)]
    return bool(returns) and all(len(r.operands) == 1 and id(r.operands[0]) in views
                                 for r in returns)


def _const(v):
    op = getattr(v, "op", None)
    return op.value if isinstance(op, ConstOp) else None


def _next(op):
    ops = op.parent.ops
    return ops[ops.index(op) + 1]
