"""freeze: a scripted module's attributes become constants (what ember.freeze runs).

A field that no `obj.set` in the module assigns never changes after scripting
(the object is built from data at load, and only compiled code could change
it). This pass

1. replaces `obj.get` of such a field on a constant object (`const @self`) by
   the field's value: a scalar, a tensor (`const @self.fc.weight`) or another
   constant object;
2. specializes each function called with a constant object as its first
   argument (a method called on a known module) into a copy where that
   argument is the constant, so (1) reaches into methods; 1 and 2 repeat to a
   fixed point;
3. folds `batch_norm(conv(x, W, b))` (conv1d / 2d / 3d) with constant
   weights and statistics into one conv with new weights, and fuses
   `conv2d(a * b, W, ...)` with a constant 1x1 W into `tensor.mul_conv2d` (its
   kernel scales W instead of the activations when a * b is a per-channel
   scale, as in squeeze-excite blocks);
4. drops the tensors and objects no function refers to any more.

The pass manager's canonicalize / fold-constants / cse / dce / inline then
clean up (freeze_module runs them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ember.ir import FuncOp, KernelOp
from ember.ir import types as T
from ember.ir.core import SymbolRef
from ember.ir.ops import CallOp, ConstOp, ObjGetOp, ObjSetOp, WidenOp
from ember.passes.registry import Pass
from ember.passes.util import all_ops, funcs

CLEANUP = ("canonicalize,fold-constants,cse,dce,inline{max-ops=400,cross-file=true},"
           "canonicalize,fold-constants,cse,dce")


def freeze_module(module) -> bool:
    """Freeze module in place and clean up (see the module docstring). True if the cleanup
    settled: its last round ran every CLEANUP pass and none changed anything."""
    from ember.passes.dce import dead_functions
    from ember.passes.manager import PassManager
    settled = False
    for _ in range(8):  # each round of inlining exposes more constants and patterns
        changed = Freeze().run(module)
        # The methods just specialized are called no more: the cleanup's dce would drop
        # them, so its earlier passes need not read them.
        changed |= dead_functions(module)
        changed |= PassManager(CLEANUP, verify_each=False).run(module)
        if not changed:
            settled = True
            break
    prune_symbols(module)
    return settled


def after_settled(pipeline: str) -> list:
    """The passes of `pipeline` left to run on a module freeze_module settled: its leading
    passes that CLEANUP has (or a weaker inline) would change nothing there."""
    from ember.passes.registry import parse_pipeline
    passes, cleanup = parse_pipeline(pipeline), parse_pipeline(CLEANUP)
    n = 0
    while n < len(passes) and any(_weaker(passes[n], q) for q in cleanup):
        n += 1
    return passes[n:]


def _weaker(p, q) -> bool:
    """Pass p changes nothing where pass q changes nothing."""
    from ember.passes.inline import Inline
    if type(p) is not type(q):
        return False
    if isinstance(p, Inline):  # inlines a subset of the calls q would
        return p.max_ops <= q.max_ops and (q.cross_file or not p.cross_file)
    return p == q


@dataclass
class Freeze(Pass):
    name = "freeze"

    def run(self, module) -> bool:
        mutable = {(op.operands[0].type.name, op.attrs["field"])
                   for op in module.walk() if isinstance(op, ObjSetOp)}
        changed, spec = False, {}
        while fold_gets(module, mutable) | specialize_calls(module, spec):
            changed = True
        changed |= fold_batch_norms(module)
        changed |= fuse_scaled_convs(module)
        return changed


# ----------------------------------------------------------------------------- 1. fields


def const_object(module, v):
    """The ObjectConst a value is a `const @obj` of, or None."""
    op = getattr(v, "op", None)
    if isinstance(op, ConstOp) and isinstance(op.value, SymbolRef):
        return module.objects.get(op.value.name)
    return None


def fold_gets(module, mutable) -> bool:
    changed = False
    for f in funcs(module):
        for op in all_ops(f):
            if not isinstance(op, ObjGetOp) or op.parent is None:
                continue
            obj = const_object(module, op.operands[0])
            field = op.attrs["field"]
            if obj is None or (obj.cls, field) in mutable:
                continue
            decl = module.classes[obj.cls]
            value = obj.values[decl.field_index(field)]
            if not isinstance(value, (SymbolRef, bool, int, float, complex, str, type(None))):
                continue  # lists and dicts are mutable in place: keep reading the field
            want = op.result.type
            have = _value_type(module, value) or want
            c = ConstOp((), [have], {"value": value}, (), op.loc)
            op.parent.insert_before(op, c)
            result = c.result
            if have != want:  # e.g. 2 in an Optional[int] field
                w = WidenOp([result], [want], None, (), op.loc)
                op.parent.insert_before(op, w)
                result = w.result
            op.result.replace_all_uses_with(result)
            op.erase()
            changed = True
    return changed


def _value_type(module, value):
    if isinstance(value, SymbolRef):
        return module.symbol_type(value.name)
    return {bool: T.BOOL, int: T.I64, float: T.F64, complex: T.C128, str: T.STR,
            type(None): T.NONE}.get(type(value))


# ----------------------------------------------------------------------------- 2. specialize


def specialize_calls(module, cache: dict) -> bool:
    changed = False
    for f in funcs(module):
        for op in all_ops(f):
            if not isinstance(op, CallOp) or op.parent is None or not op.operands:
                continue
            obj = const_object(module, op.operands[0])
            callee = module.funcs.get(op.callee)
            if obj is None or callee is None or callee is f:
                continue
            key = (op.callee, obj.name)
            name = cache.get(key)
            if name is None:
                name = cache[key] = _specialize(module, callee, op.operands[0].op)
            new = CallOp(op.operands[1:], [r.type for r in op.results],
                         {"callee": SymbolRef(name)}, (), op.loc)
            op.parent.insert_before(op, new)
            op.replace_with(new.results)
            changed = True
    return changed


def _specialize(module, callee: FuncOp, const_op: ConstOp) -> str:
    """A copy of callee whose first parameter is the constant const_op loads."""
    name = f"{callee.sym_name}${const_op.value.name}"
    k = 1
    while name in module.funcs:
        k += 1
        name = f"{callee.sym_name}${const_op.value.name}.{k}"
    ft = callee.type
    n_defaults = len(callee.defaults)
    clone = FuncOp(name, T.FunctionType(ft.params[1:], ft.ret), callee.loc,
                   [a.name for a in callee.args[1:]],
                   callee.defaults[-(len(ft.params) - 1):] if n_defaults else [])
    first = ConstOp((), [ft.params[0]], {"value": const_op.value}, (), callee.loc)
    clone.body.append(first)
    mapping = {callee.args[0]: first.result}
    mapping.update(zip(callee.args[1:], clone.args))
    for op in callee.body.ops:
        clone.body.append(op.clone(mapping))
    module.add_func(clone)
    return name


# ----------------------------------------------------------------------------- 3. batch_norm


def fold_batch_norms(module) -> bool:
    return _rewrite_each(module, "tensor.batch_norm", _fold_one)


def _rewrite_each(module, name, rewrite) -> bool:
    """rewrite(module, op) on every op called `name` still in place; True if one changed."""
    changed = False
    for f in funcs(module):
        for op in all_ops(f):
            if op.name == name and op.parent is not None:
                changed |= rewrite(module, op)
    return changed


_SHAPE_ONLY = frozenset({"tensor.size", "tensor.size_dim", "tensor.dim", "tensor.numel",
                         "tensor.len"})
"""Ops that read only a tensor's shape: folding a batch norm into the convolution before it
changes the values they see, never the shape (so they may share the conv's result)."""


def _tensor_const(module, v):
    """The array of a `const @tensor` (through widen), None for `const none`, or False."""
    op = getattr(v, "op", None)
    if isinstance(op, WidenOp):
        return _tensor_const(module, op.operands[0])
    if isinstance(op, ConstOp):
        if op.value is None:
            return None
        if isinstance(op.value, SymbolRef) and op.value.name in module.tensors:
            return module.tensors[op.value.name].data
    return False


def _fold_one(module, bn) -> bool:
    x = bn.operands[0]
    conv = getattr(x, "op", None)
    others = [u.op for u in x.uses if u.op is not bn]
    if conv is None or conv.name not in ("tensor.conv1d", "tensor.conv2d", "tensor.conv3d") \
            or not all(o.name in _SHAPE_ONLY for o in others) or conv.parent is not bn.parent:
        return False
    # batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    w, b = (_tensor_const(module, v) for v in conv.operands[1:3])
    stats = [_tensor_const(module, v) for v in bn.operands[1:5]]
    training = _scalar_const(bn.operands[5]) if len(bn.operands) == 8 else None
    eps = _scalar_const(bn.operands[7]) if len(bn.operands) == 8 else None
    if w is None or w is False or b is False or stats[0] is None or stats[1] is None or \
            any(s is False for s in stats) or training is not False or \
            not isinstance(eps, float) or w.dtype.kind != "f":
        return False
    mean, var, gamma, beta = stats
    channels = (w.shape[0],) if w.ndim else None
    if any(t is not None and t.shape != channels for t in (b, mean, var, gamma, beta)):
        return False  # mismatched shapes: the batch norm raises torch's error at run time
    scale = 1.0 / np.sqrt(var.astype(np.float64) + eps)
    if gamma is not None:
        scale = scale * gamma
    shift = -mean * scale + (beta if beta is not None else 0.0)
    w2 = (w * scale.reshape((-1,) + (1,) * (w.ndim - 1))).astype(w.dtype)
    b2 = ((b if b is not None else 0.0) * scale + shift).astype(w.dtype)
    _replace_operand(module, conv, 1, w2, "folded_weight")
    _replace_operand(module, conv, 2, b2, "folded_bias")
    bn.result.replace_all_uses_with(conv.result)
    bn.erase()
    return True


def fuse_scaled_convs(module) -> bool:
    """conv2d(mul(a, b), W, ...) -> mul_conv2d(a, b, W, ...) where W is a constant 1x1
    weight and the product has no other use."""
    return _rewrite_each(module, "tensor.conv2d", _fuse_scaled)


def _fuse_scaled(module, conv) -> bool:
    x = conv.operands[0]
    mul = getattr(x, "op", None)
    w = _tensor_const(module, conv.operands[1])
    if mul is None or mul.name != "tensor.mul" or len(x.uses) != 1 or \
            mul.parent is not conv.parent or w is None or w is False or \
            w.ndim != 4 or w.shape[2:] != (1, 1):
        return False
    fused = KernelOp("tensor.mul_conv2d", list(mul.operands) + list(conv.operands[1:]),
                     [conv.result.type], None, conv.loc)
    conv.parent.insert_before(conv, fused)
    conv.result.replace_all_uses_with(fused.result)
    conv.erase()
    mul.erase()
    return True


def _scalar_const(v):
    op = getattr(v, "op", None)
    return op.value if isinstance(op, ConstOp) and not isinstance(op.value, SymbolRef) else None


def _replace_operand(module, op, i, arr, suffix) -> None:
    base = getattr(getattr(op.operands[1], "op", None), "value", None)
    base = base.name if isinstance(base, SymbolRef) else "frozen"
    name, k = f"{base}.{suffix}", 1
    while name in module.tensors or name in module.objects:
        k += 1
        name = f"{base}.{suffix}{k}"
    module.add_tensor(name, arr)
    t = module.tensors[name].type
    c = ConstOp((), [t], {"value": SymbolRef(name)}, (), op.loc)
    op.parent.insert_before(op, c)
    v = c.result
    want = op.operands[i].type
    if want != t:
        w = WidenOp([v], [want], None, (), op.loc)
        op.parent.insert_before(op, w)
        v = w.result
    op.set_operand(i, v)


# ----------------------------------------------------------------------------- 4. symbols


def prune_symbols(module) -> None:
    """Remove the tensors and objects nothing refers to."""
    from ember.interpreter.lower import _live_symbols
    tensors, objects = _live_symbols(module)
    for name in [n for n in module.tensors if n not in set(tensors)]:
        del module.tensors[name]
    for name in [n for n in module.objects if n not in set(objects)]:
        del module.objects[name]
