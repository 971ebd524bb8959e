"""quantize: int8 weights as an IR rewrite of a frozen module (docs/quantization.md).

Runs after freezing, when a layer's weights are constant tensors (`const @self.fc.weight`)
and its parameter lists constant object fields:

* dynamic: `tensor.linear(x, W, b)` with a constant float32 W becomes
  `tensor.quantized_linear_dynamic(x, Wq, s, b, true)` (torch.ao's quantize_dynamic);
  `tensor.lstm` / `tensor.gru` with constant parameters become their dynamic int8
  versions (both products int8, cell math float32).
* weight_only: the same weights (and conv weights) become int8 codes dequantized once at
  load (`tensor.dequantize_weight`, cached for a loaded artifact's frozen codes).

Weights are symmetric int8, per output channel or per tensor. Each rewrite is recorded
in a report (what runs in int8, what stays float and why, with the source line).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ember.ir import KernelOp
from ember.ir import types as T
from ember.ir.core import SymbolRef
from ember.ir.ops import ConstOp, ListNewOp, ObjGetOp, WidenOp
from ember.ops.tensor_quant import quantize_codes, symmetric_scale
from ember.passes.util import all_ops, funcs


@dataclass
class Entry:
    op: str
    where: str
    int8: bool
    note: str
    weight_bytes: int = 0
    int8_bytes: int = 0


@dataclass
class Report:
    mode: str
    entries: list = field(default_factory=list)

    def add(self, op, int8, note, before=0, after=0):
        self.entries.append(Entry(op.name, _where(op), int8, note, before, after))

    @property
    def fp32_bytes(self) -> int:
        return sum(e.weight_bytes for e in self.entries)

    @property
    def quantized_bytes(self) -> int:
        return sum(e.int8_bytes if e.int8 else e.weight_bytes for e in self.entries)

    def __str__(self) -> str:
        lines = [f"ember.quantize(mode={self.mode!r}):"]
        for e in self.entries:
            tag = "int8 " if e.int8 else "float"
            lines.append(f"  {tag}  {e.op:<28} {e.where}  {e.note}")
        if not self.entries:
            lines.append("  (no linear, recurrent or convolution layer with constant weights)")
        before, after = self.fp32_bytes, self.quantized_bytes
        ratio = f" ({before / after:.2f}x smaller)" if after else ""
        lines.append(f"  weights: {before:,} bytes float32 -> {after:,} bytes{ratio}")
        return "\n".join(lines)


_EMBER_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _where(op) -> str:
    """The innermost source line outside ember's own layers that leads to op (the user's
    `self.fc(x)`), or op's own line."""
    loc = op.loc
    if loc is None or loc.is_unknown:
        return "<unknown>"
    inl = loc.inlined
    sites = [(inl[i - 1][2], inl[i][1]) for i in range(1, len(inl))] + [(loc.file, loc.line)]
    user = [s for s in sites if not os.path.abspath(s[0] or "").startswith(_EMBER_DIR)]
    f, line = user[-1] if user else sites[-1]
    return f"{os.path.normpath(f)}:{line}"


# ----------------------------------------------------------------------------- constants

_SHAPE_USES = frozenset({"tensor.size", "tensor.size_dim", "tensor.dim", "tensor.numel",
                         "tensor.len"})
"""Ops that read only a tensor's shape (a rewrite may hand them an equal-shaped value)."""


def _unwiden(v):
    op = getattr(v, "op", None)
    return _unwiden(op.operands[0]) if isinstance(op, WidenOp) else v


def tensor_const(module, v):
    """The array of a `const @tensor`, None for `const none`, False if not constant."""
    op = getattr(_unwiden(v), "op", None)
    if isinstance(op, ConstOp):
        if op.value is None:
            return None
        if isinstance(op.value, SymbolRef) and op.value.name in module.tensors:
            return module.tensors[op.value.name].data
    return False


def _bool_const(v):
    op = getattr(_unwiden(v), "op", None)
    return op.value if isinstance(op, ConstOp) and isinstance(op.value, bool) else None


def tensor_list_const(module, v):
    """The arrays of a constant list<tensor>: a `list.new` of constant tensors, or a list
    field of a constant object no code assigns; None otherwise."""
    op = getattr(_unwiden(v), "op", None)
    if isinstance(op, ListNewOp):
        arrs = [tensor_const(module, x) for x in op.operands]
        return None if any(a is None or a is False for a in arrs) else arrs
    if isinstance(op, ObjGetOp):
        src = getattr(op.operands[0], "op", None)
        if not isinstance(src, ConstOp) or not isinstance(src.value, SymbolRef):
            return None
        obj = module.objects.get(src.value.name)
        decl = module.classes.get(obj.cls) if obj is not None else None
        i = decl.field_index(op.attrs["field"]) if decl is not None else None
        if i is None or not isinstance(obj.values[i], list):
            return None
        refs = obj.values[i]
        if not all(isinstance(r, SymbolRef) and r.name in module.tensors for r in refs):
            return None
        return [module.tensors[r.name].data for r in refs]
    return None


class _Consts:
    """New tensor constants inserted before one op."""

    def __init__(self, module, before, base):
        self.module, self.before, self.base = module, before, base

    def tensor(self, arr, suffix):
        name, k = f"{self.base}.{suffix}", 1
        while name in self.module.tensors or name in self.module.objects:
            k += 1
            name = f"{self.base}.{suffix}{k}"
        self.module.add_tensor(name, arr)
        return self._insert(ConstOp((), [self.module.tensors[name].type],
                                    {"value": SymbolRef(name)}, (), self.before.loc))

    def value(self, v, t):
        return self._insert(ConstOp((), [t], {"value": v}, (), self.before.loc))

    def widen(self, v, t):
        return v if v.type == t else self._insert(WidenOp([v], [t], None, (), self.before.loc))

    def list(self, values):
        return self._insert(ListNewOp(values, [T.ListType(T.TensorType())], None, (),
                                      self.before.loc))

    def _insert(self, op):
        self.before.parent.insert_before(self.before, op)
        return op.result


def _base_name(v):
    op = getattr(_unwiden(v), "op", None)
    if isinstance(op, ConstOp) and isinstance(op.value, SymbolRef):
        return op.value.name
    return "quant"


def quantize_weight(w, per_channel):
    """Symmetric int8 codes of a float weight and its float32 scales (one per output
    channel, or one)."""
    w = np.asarray(w, np.float32)
    if per_channel:
        amax = np.abs(w.reshape(w.shape[0], -1)).max(axis=1) if w.size else \
            np.zeros(w.shape[0], np.float32)
        s = symmetric_scale(amax)
        return quantize_codes(w, s, np.zeros(len(s)), -128, 127, np.int8, axis=0), s
    s = symmetric_scale(np.abs(w).max() if w.size else 0.0).reshape(1)
    return quantize_codes(w, float(s[0]), 0, -128, 127, np.int8), s


def _is_float_weight(w, ndim=None):
    return isinstance(w, np.ndarray) and w.dtype == np.float32 and w.size > 0 and \
        (ndim is None or w.ndim in ndim)


# ----------------------------------------------------------------------------- dynamic


def _dynamic_linear(module, op, per_channel, report):
    w = tensor_const(module, op.operands[1])
    b = tensor_const(module, op.operands[2])
    if not _is_float_weight(w, (2,)) or b is False:
        report.add(op, False, "weight is not a constant float32 matrix")
        return False
    q, s = quantize_weight(w, per_channel)
    c = _Consts(module, op, _base_name(op.operands[1]))
    new = KernelOp("tensor.quantized_linear_dynamic",
                   [op.operands[0], c.tensor(q, "int8"), c.tensor(s, "scale"), op.operands[2],
                    c.value(True, T.BOOL)], [op.result.type], None, op.loc)
    _replace(op, new)
    report.add(op, True, f"dynamic int8 {'per-channel' if per_channel else 'per-tensor'}",
               w.nbytes, q.nbytes + s.nbytes)
    return True


_RNN_GATES = {"tensor.lstm": 4, "tensor.gru": 3, "tensor.gru_nohx": 3}


def _dynamic_rnn(module, op, per_channel, report):
    # (input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first)
    params = tensor_list_const(module, op.operands[2])
    has_b = _bool_const(op.operands[3])
    per = 4 if has_b else 2
    if params is None or has_b is None or len(params) % per or \
            not all(_is_float_weight(p) for p in params):
        report.add(op, False, "parameters are not constant float32 tensors")
        return False
    nbytes = sum(p.nbytes for p in params)
    gates = _RNN_GATES[op.name]
    c = _Consts(module, op, _base_name(op.operands[2]) + ".int8")
    values, qbytes = [], 0
    for k in range(len(params) // per):
        w_ih, w_hh = params[k * per], params[k * per + 1]
        hid = w_hh.shape[0] // gates
        if w_hh.shape[1] != hid:
            report.add(op, False, "LSTM projections (proj_size) stay float")
            return False
        zeros = np.zeros(w_ih.shape[0], np.float32)
        biases = (params[k * per + 2], params[k * per + 3]) if has_b else (zeros, zeros)
        for w, b in ((w_ih, biases[0]), (w_hh, biases[1])):
            q, s = quantize_weight(w, per_channel)
            qbytes += q.nbytes + s.nbytes + b.nbytes
            values += [c.tensor(q, f"w{k}"), c.tensor(s, f"s{k}"), c.tensor(b, f"b{k}")]
    hx = op.operands[1]
    if op.name == "tensor.gru":
        hx = c.list([hx])
    name = "tensor.quantized_lstm_dynamic" if op.name == "tensor.lstm" else \
        "tensor.quantized_gru_dynamic"
    new = KernelOp(name, [op.operands[0], hx, c.list(values), op.operands[4],
                          op.operands[7], op.operands[8]], [op.result.type], None, op.loc)
    _replace(op, new)
    report.add(op, True, "dynamic int8 input and recurrent products", nbytes, qbytes)
    return True


def _replace(op, new):
    old = list(op.operands)
    op.parent.insert_before(op, new)
    op.result.replace_all_uses_with(new.result)
    op.erase()
    for v in old:
        _drop_if_dead(v)


def _drop_if_dead(v):
    """Erase the constant / obj.get / widen chain that made v once nothing uses it (DCE
    keeps an obj.get, and its object would keep the float weights in the artifact)."""
    op = getattr(v, "op", None)
    if isinstance(op, (ConstOp, ObjGetOp, WidenOp)) and not v.uses and op.parent is not None:
        operands = list(op.operands)
        op.erase()
        for u in operands:
            _drop_if_dead(u)


def fold_relu(module) -> int:
    """`tensor.relu(tensor.quantized_linear_dynamic(...))`, the relu the product's only
    reader but for its shape, in one block, becomes one
    `tensor.quantized_linear_dynamic_relu` (the relu in the product's epilogue, the same
    bits). Returns how many were folded."""
    folded = 0
    for f in funcs(module):
        for op in all_ops(f):
            if op.name == "tensor.quantized_linear_dynamic" and op.parent is not None:
                relu, v = _sole_relu(op)
                if relu is not None:
                    _fold(op, relu, v)
                    folded += 1
    return folded


def _sole_relu(op):
    """(the relu reading op's result, through at most one widen, or None; the value the
    relu reads)."""
    v = op.result
    users = _readers(v)
    if len(users) == 1 and isinstance(users[0], WidenOp) and users[0].parent is op.parent:
        v = users[0].result
        users = _readers(v)
    if len(users) != 1 or users[0].name != "tensor.relu" or users[0].parent is not op.parent \
            or users[0].operands[0] is not v or _bool_const(users[0].operands[1]) is None:
        return None, None
    return users[0], v


def _readers(v):
    return [u.op for u in v.uses if u.op.name not in _SHAPE_USES]


def _fold(op, relu, v):
    """relu reads v (op's result or its widen): the new op replaces op (v keeps reading
    it), and v replaces the relu."""
    new = KernelOp("tensor.quantized_linear_dynamic_relu", list(op.operands),
                   [op.result.type], None, op.loc)
    op.parent.insert_before(op, new)
    op.result.replace_all_uses_with(new.result)
    relu.result.replace_all_uses_with(new.result if v is op.result else v)
    flag = relu.operands[1]
    relu.erase()
    _drop_if_dead(flag)
    op.erase()


# ----------------------------------------------------------------------------- weight only

_WEIGHT_OPS = {"tensor.linear": (2,), "tensor.conv1d": (3,), "tensor.conv2d": (4,),
               "tensor.conv3d": (5,)}


def _dequantized(module, op, v, w, per_channel, base):
    q, s = quantize_weight(w, per_channel)
    c = _Consts(module, op, base)
    new = KernelOp("tensor.dequantize_weight", [c.tensor(q, "int8"), c.tensor(s, "scale")],
                   [T.TensorType("f32", tuple(w.shape))], None, op.loc)
    op.parent.insert_before(op, new)
    return new.result, q.nbytes + s.nbytes


def _weight_only(module, op, per_channel, report):
    if op.name in _WEIGHT_OPS:
        w = tensor_const(module, op.operands[1])
        if not _is_float_weight(w, _WEIGHT_OPS[op.name]):
            report.add(op, False, "weight is not a constant float32 tensor")
            return False
        r, nb = _dequantized(module, op, op.operands[1], w, per_channel,
                             _base_name(op.operands[1]))
        old = op.operands[1]
        op.set_operand(1, _Consts(module, op, "").widen(r, op.operands[1].type))
        _drop_if_dead(old)
        report.add(op, True, "int8 weight, float compute", w.nbytes, nb)
        return True
    params = tensor_list_const(module, op.operands[2])
    if params is None or not all(_is_float_weight(p) for p in params):
        report.add(op, False, "parameters are not constant float32 tensors")
        return False
    c = _Consts(module, op, _base_name(op.operands[2]))
    values, nbytes, qbytes = [], 0, 0
    for i, p in enumerate(params):
        nbytes += p.nbytes
        if p.ndim == 2:
            r, nb = _dequantized(module, op, op.operands[2], p, per_channel,
                                 _base_name(op.operands[2]) + f".{i}")
            values.append(c.widen(r, T.TensorType()))
            qbytes += nb
        else:
            values.append(c.widen(c.tensor(p, f"p{i}"), T.TensorType()))
            qbytes += p.nbytes
    old = op.operands[2]
    op.set_operand(2, c.list(values))
    _drop_if_dead(old)
    report.add(op, True, "int8 weights, float compute", nbytes, qbytes)
    return True


# ----------------------------------------------------------------------------- unfusing


def unfuse(module) -> None:
    """Inline every `tensor.fused` group (passes/fuse.py) back into the ops it holds, so the
    rewrites see a scripted module's layers as they were written."""
    for f in funcs(module):
        for op in all_ops(f):
            if op.name != "tensor.fused" or op.parent is None:
                continue
            block = op.regions[0].block
            for arg, v in zip(block.args, op.operands):
                arg.replace_all_uses_with(v)
            term = block.ops[-1]
            for inner in list(block.ops[:-1]):
                inner.detach()
                op.parent.insert_before(op, inner)
            for r, v in zip(op.results, term.operands):
                r.replace_all_uses_with(v)
            op.erase()


# ----------------------------------------------------------------------------- driver

_FLOAT_NOTES = {
    "tensor.conv1d": "convolutions are quantized by mode='static' only",
    "tensor.conv2d": "convolutions are quantized by mode='static' only",
    "tensor.conv3d": "no int8 3-d convolution",
    "tensor.rnn_tanh": "no int8 Elman RNN kernel",
    "tensor.rnn_relu": "no int8 Elman RNN kernel",
    "tensor.mul_conv2d": "no int8 fused scale-convolution",
}


def quantize_module(module, mode: str, per_channel: bool = True) -> Report:
    """Rewrite a frozen IR module in place for `mode` ("dynamic" or "weight_only")."""
    report = Report(mode)
    targets = []
    for f in funcs(module):
        for op in all_ops(f):
            targets.append(op)
    for op in targets:
        if op.parent is None:
            continue
        if mode == "dynamic":
            if op.name == "tensor.linear":
                _dynamic_linear(module, op, per_channel, report)
            elif op.name in _RNN_GATES:
                _dynamic_rnn(module, op, per_channel, report)
            elif op.name in _FLOAT_NOTES:
                report.add(op, False, _FLOAT_NOTES[op.name])
        elif mode == "weight_only":
            if op.name in _WEIGHT_OPS or op.name in _RNN_GATES or \
                    op.name in ("tensor.rnn_tanh", "tensor.rnn_relu"):
                _weight_only(module, op, per_channel, report)
        else:
            raise ValueError(f"quantize_module: unknown mode {mode!r}")
    if mode == "dynamic":
        fold_relu(module)
    return report
