"""ao-qparams: bind the input scale and zero point of torch.ao's converted static layers.

A model quantized by torch.ao carries quantized tensors (codes + scale + zero point)
from a QuantStub to a DeQuantStub; ember's converted layers (ember.nn.quantized) carry
only the uint8 codes and call `tensor.ao_*` operators that know their output qparams but
not their input's. After freezing, this pass follows every codes value forward from the
`tensor.quantize_per_tensor` that made it, through the ops that keep qparams (pooling by
max, flatten, reshape, views, dropout, calls of helpers that only use such ops), and
rewrites each `tensor.ao_*` op into the int8 operator with its input qparams
(`tensor.quantized_conv2d`, `quantized_linear`, `quantized_add`, `quantized_mul`,
`quantized_cat`, `dequantize_codes`); a ReLU on codes becomes `max(q, zero_point)`.

An op that has no int8 kernel and receives codes (or a quantized layer that receives a
float tensor) is an UnsupportedError naming its source line, where torch prints a
dispatch-key dump.
"""

from __future__ import annotations

from ember.errors import UnsupportedError
from ember.ir import KernelOp
from ember.ir import types as T
from ember.ir.ops import CallOp, ConstOp, IfOp, ListNewOp, ReturnOp, YieldOp
from ember.passes.quantize import _SHAPE_USES, _drop_if_dead
from ember.passes.util import funcs

AO_OPS = frozenset({"tensor.ao_dequantize", "tensor.ao_conv2d", "tensor.ao_linear",
                    "tensor.ao_add", "tensor.ao_mul", "tensor.ao_cat", "tensor.ao_hardswish"})
_KEEP = frozenset({
    "tensor.max_pool1d", "tensor.max_pool2d", "tensor.max_pool3d",
    "tensor.adaptive_max_pool1d", "tensor.adaptive_max_pool2d", "tensor.adaptive_max_pool3d",
    "tensor.flatten", "tensor.reshape", "tensor.view", "tensor.view_seq", "tensor.squeeze",
    "tensor.squeeze_dims", "tensor.unsqueeze", "tensor.contiguous", "tensor.clone",
    "tensor.detach", "tensor.permute", "tensor.permute_seq", "tensor.transpose",
    "tensor.dropout", "tensor.dropout_fn", "tensor.dropout_channels", "widen", "narrow"})
"""Ops whose result (from operand 0) has the same scale and zero point as their input."""
_CONTIGUOUS = frozenset({"tensor.flatten", "tensor.reshape", "tensor.view",
                         "tensor.view_seq"})
"""Of _KEEP, the ops whose result torch makes contiguous (a channels_last input is copied)."""
_PASS = frozenset({"list.new", "tuple.new", "yield", "return"}) | _SHAPE_USES


def has_ao_ops(module) -> bool:
    return any(op.name in AO_OPS for f in funcs(module) for op in _walk(f.regions[0].block))


def _walk(block):
    for op in list(block.ops):
        yield op
        for r in op.regions:
            yield from _walk(r.block)


def _const(v):
    op = getattr(v, "op", None)
    return op.value if isinstance(op, ConstOp) else None


def _where(op):
    from ember.passes.quantize import _where as where
    return where(op)


class _Binder:
    def __init__(self, module):
        self.module = module
        self.q: dict = {}  # id(value) -> (scale, zero_point)
        self.cl: set = set()  # ids of codes values torch holds channels_last
        self.todo: list = []  # (op, input qparams)
        self.callees: dict = {}  # callee name -> qparams of its arguments

    def run(self):
        for name in self.module.entries:
            self.block(self.module.funcs[name].regions[0].block, entry=True)
        for op, qp in self.todo:
            _rewrite(op, qp)

    def get(self, v):
        return self.q.get(id(v))

    def block(self, block, entry=False):
        for op in list(block.ops):
            self.op(op, entry)

    def op(self, op, entry):
        for r in op.regions:
            self.block(r.block, entry)
        name = op.name
        ins = [self.get(v) for v in op.operands]
        if name == "tensor.quantize_per_tensor":
            s, z = _const(op.operands[1]), _const(op.operands[2])
            if ins[0] is not None:
                raise _error(op, "quantizes a tensor that is already quantized (a second "
                                 "QuantStub?)")
            if isinstance(s, float) and isinstance(z, int):
                self.q[id(op.result)] = (s, z)
            return
        if name in AO_OPS:
            return self.ao(op, ins)
        if name in ("tensor.relu", "tensor.relu_") and ins[0] is not None:
            self.todo.append((op, ins[0]))
            self.keep(op)
            return
        if name in ("tensor.relu6", "tensor.relu6_") and ins[0] is not None:
            self.todo.append((op, ins[0]))
            self.keep(op)
            return
        if name == "tensor.adaptive_avg_pool2d" and ins[0] is not None:
            self.todo.append((op, (ins[0], id(op.operands[0]) in self.cl)))
            self.keep(op)
            return
        if name in _KEEP and ins and ins[0] is not None:
            self.keep(op, name not in _CONTIGUOUS)
            return
        if isinstance(op, IfOp):
            return self.merge_if(op)
        if isinstance(op, CallOp):
            return self.call(op, ins)
        if isinstance(op, ReturnOp) and entry and any(ins):
            raise _error(op, "returns a quantized tensor (uint8 codes); dequantize it first "
                             "(a DeQuantStub)")
        if name in _PASS or not any(i is not None for i in ins):
            return
        raise _error(op, f"'{name}' has no int8 kernel but receives a quantized tensor; "
                         "dequantize before it (a DeQuantStub)")

    def ao(self, op, ins):
        name = op.name
        if name == "tensor.ao_cat":
            lst = getattr(op.operands[0], "op", None)
            if not isinstance(lst, ListNewOp) or any(self.get(v) is None
                                                     for v in lst.operands):
                raise _error(op, "quantized cat needs a list of quantized tensors written "
                                 "out at the call")
            self.todo.append((op, [self.get(v) for v in lst.operands]))
        else:
            n = 2 if name in ("tensor.ao_add", "tensor.ao_mul") else 1
            if any(i is None for i in ins[:n]):
                raise _error(op, "a quantized layer receives a float tensor (is a "
                                 "QuantStub missing before it?)")
            self.todo.append((op, ins[:n]))
        if name != "tensor.ao_dequantize":
            k = _OUT[name]
            self.q[id(op.result)] = (_const(op.operands[k]), _const(op.operands[k + 1]))
            first = op.operands[0]
            if name == "tensor.ao_conv2d" or (name in ("tensor.ao_add", "tensor.ao_mul",
                                                       "tensor.ao_hardswish") and
                                              id(first) in self.cl):
                self.cl.add(id(op.result))  # fbgemm's convolutions write channels_last

    def keep(self, op, layout=True):
        """op's results have its first operand's qparams (and layout, unless it makes a
        contiguous tensor)."""
        for r in op.results:
            self.q[id(r)] = self.q[id(op.operands[0])]
            if layout and id(op.operands[0]) in self.cl:
                self.cl.add(id(r))

    def merge_if(self, op):
        for i, r in enumerate(op.results):
            got = set()
            for reg in op.regions:
                term = reg.block.ops[-1] if reg.block.ops else None
                if isinstance(term, YieldOp) and i < len(term.operands):
                    got.add(self.get(term.operands[i]))
            if len(got) == 1 and None not in got:
                self.q[id(r)] = got.pop()
            elif len(got) > 1 and any(g is not None for g in got):
                raise _error(op, "branches yield tensors with different quantization")

    def call(self, op, ins):
        if not any(i is not None for i in ins):
            return
        sym = op.attrs["callee"]
        sym = sym.name if hasattr(sym, "name") else str(sym)
        callee = self.module.funcs.get(sym)
        if callee is None:
            raise _error(op, "calls an unknown function with a quantized tensor")
        key = tuple(ins)
        prev = self.callees.get(sym)
        if prev is not None and prev != key:
            raise _error(op, f"@{sym} is called with tensors of different quantization; "
                             "ember binds one per function")
        block = callee.regions[0].block
        if prev is None:
            self.callees[sym] = key
            for a, qp in zip(block.args, ins):
                if qp is not None:
                    self.q[id(a)] = qp
            self.block(block)
        rets = {self.get(r.operands[0]) for r in _walk(block) if isinstance(r, ReturnOp)}
        if len(rets) == 1 and None not in rets:
            self.q[id(op.result)] = rets.pop()


_OUT = {"tensor.ao_conv2d": 4, "tensor.ao_linear": 4, "tensor.ao_cat": 2,
        "tensor.ao_hardswish": 1,
        "tensor.ao_add": 2, "tensor.ao_mul": 2}
"""Operand index of each ao op's output scale (the zero point follows it)."""


def _error(op, msg):
    return UnsupportedError(f"{_where(op)}: {msg}")


def _rewrite(op, qp):
    loc, ops_ = op.loc, op.operands

    def const(v, t):
        c = ConstOp((), [t], {"value": v}, (), loc)
        op.parent.insert_before(op, c)
        return c.result

    f64 = lambda v: const(float(v), T.F64)  # noqa: E731
    i64 = lambda v: const(int(v), T.I64)  # noqa: E731
    name = op.name
    u8 = T.TensorType("u8")
    if name in ("tensor.relu", "tensor.relu_"):
        new = KernelOp("tensor.quantized_relu", [ops_[0], i64(qp[1])], [op.result.type],
                       None, loc)
    elif name in ("tensor.relu6", "tensor.relu6_"):
        new = KernelOp("tensor.quantized_relu6", [ops_[0], f64(qp[0]), i64(qp[1])],
                       [op.result.type], None, loc)
    elif name == "tensor.ao_hardswish":
        (s, z), = qp
        new = KernelOp("tensor.quantized_hardswish", [ops_[0], f64(s), i64(z)] +
                       list(ops_[1:]), [u8], None, loc)
    elif name == "tensor.adaptive_avg_pool2d":
        (s, z), channels_last = qp
        new = KernelOp("tensor.quantized_adaptive_avg_pool2d",
                       [ops_[0], ops_[1], i64(z), const(channels_last, T.BOOL)],
                       [op.result.type], None, loc)
    elif name == "tensor.ao_dequantize":
        (s, z), = qp
        new = KernelOp("tensor.dequantize_codes", [ops_[0], f64(s), i64(z)],
                       [op.result.type], None, loc)
    elif name == "tensor.ao_conv2d":
        (s, z), = qp
        new = KernelOp("tensor.quantized_conv2d", [ops_[0], f64(s), i64(z)] + list(ops_[1:]),
                       [u8], None, loc)
    elif name == "tensor.ao_linear":
        (s, z), = qp
        new = KernelOp("tensor.quantized_linear", [ops_[0], f64(s), i64(z)] + list(ops_[1:]),
                       [u8], None, loc)
    elif name in ("tensor.ao_add", "tensor.ao_mul"):
        (sa, za), (sb, zb) = qp
        new = KernelOp(name.replace("ao_", "quantized_"),
                       [ops_[0], f64(sa), i64(za), ops_[1], f64(sb), i64(zb)] + list(ops_[2:]),
                       [u8], None, loc)
    else:  # ao_cat
        scales = ListNewOp([f64(s) for s, _ in qp], [T.ListType(T.F64)], None, (), loc)
        zps = ListNewOp([i64(z) for _, z in qp], [T.ListType(T.I64)], None, (), loc)
        op.parent.insert_before(op, scales)
        op.parent.insert_before(op, zps)
        new = KernelOp("tensor.quantized_cat", [ops_[0], scales.result, zps.result,
                                                ops_[1], ops_[2], ops_[3]], [u8], None, loc)
    op.parent.insert_before(op, new)
    op.result.replace_all_uses_with(new.result)
    old = list(op.operands)
    op.erase()
    for v in old:
        _drop_if_dead(v)


def bind_ao_qparams(module) -> None:
    """Rewrite the module's `tensor.ao_*` ops in place (see the module docstring)."""
    _Binder(module).run()
