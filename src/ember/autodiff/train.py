"""The IR of a training step (see ember/api/train.py for the whole picture).

build_step adds `__model`, `__objective` (and its adjoint), `step` and `state_dict` to a
frozen model's IR module, and the optimizer's state tensors."""

from __future__ import annotations

import numpy as np

from ember.autodiff.emit import Emitter
from ember.autodiff.transform import Differentiator, coerce
from ember.errors import UnsupportedError
from ember.ir import types as T
from ember.ir.builder import IRBuilder
from ember.ir.core import SymbolRef
from ember.ir.ops import CallOp, FuncOp, create_op

STEP = "optim.step"
"""The step count tensor (float64, 0-d) of optimizers that need it."""
DROPOUT_COUNTER = "train.dropout_step"
"""The int64 0-d tensor counting steps for dropout masks (tensor.dropout_seeded)."""


def build_step(module, params: list[str], names: list[str], loss_name: str, optimizer) -> None:
    fwd = module.funcs["forward"]
    loss = module.funcs[loss_name]
    ptypes = [module.tensors[p].type for p in params]
    in_types = list(fwd.type.params)
    target_type = loss.type.params[1]
    _model(module, fwd, params, ptypes)
    number_dropouts(module.funcs["__model"])
    batch_norms_eval(fwd)
    dropouts_eval(fwd)
    _objective(module, fwd, loss, ptypes, in_types, target_type)
    vjp = Differentiator(module).vjp("__objective", wrt=range(len(params)))
    _step(module, fwd, vjp, params, names, ptypes, in_types, target_type, optimizer)
    _state_dict(module, fwd)
    module.entries = ["step", "forward", "state_dict"]


def batch_norms_train(module, momentum) -> None:
    """Every batch norm of the module in training mode with `momentum` (before freezing,
    so that no batch norm folds into a convolution)."""
    if momentum is None:
        return
    for op in list(module.walk()):
        if op.name == "tensor.batch_norm":
            _set_const(op, 5, True)
            _set_const(op, 6, float(momentum))


def dropouts_train(module, p, seed: int) -> bool:
    """ember.nn's Dropout layers (identity in eval) drop with probability p in training: each
    Dropout.forward returns tensor.dropout_seeded of its input. True if there were any."""
    found = False
    for name, f in module.funcs.items():
        if name.split(".")[0] != "Dropout" or not name.endswith(".forward"):
            continue
        ret = f.body.ops[-1]
        b = IRBuilder(f.body, ret.loc)
        b.set_insertion_before(ret)
        e = Emitter(b)
        if DROPOUT_COUNTER not in module.tensors:
            module.add_tensor(DROPOUT_COUNTER, np.zeros((), np.int64))
        counter = b.const(SymbolRef(DROPOUT_COUNTER), module.tensors[DROPOUT_COUNTER].type)
        y = e.op("tensor.dropout_seeded", ret.operands[0], float(p), int(seed), counter, 0)
        ret.set_operand(0, coerce(e, y, ret.operands[0].type))
        found = True
    return found


def number_dropouts(f) -> None:
    """Each dropout of f (after inlining) draws from its own stream: site = its position."""
    for i, op in enumerate(o for o in f.walk() if o.name == "tensor.dropout_seeded"):
        _set_const(op, 4, i)


def dropouts_eval(fwd) -> None:
    """fwd's dropouts back to the identity (the inference entry)."""
    for op in list(fwd.walk()):
        if op.name == "tensor.dropout_seeded":
            op.result.replace_all_uses_with(op.operands[0])
            op.erase()


def batch_norms_eval(fwd) -> None:
    """fwd's batch norms back in eval mode (the inference entry)."""
    for op in list(fwd.walk()):
        if op.name == "tensor.batch_norm":
            _set_const(op, 5, False)


def _set_const(op, i: int, value) -> None:
    b = IRBuilder(op.parent, op.loc)
    b.set_insertion_before(op)
    t = T.BOOL if isinstance(value, bool) else T.I64 if isinstance(value, int) else T.F64
    op.set_operand(i, b.const(value, t))


def _model(module, fwd, params, ptypes) -> None:
    f = FuncOp("__model", T.FunctionType(tuple(ptypes) + fwd.type.params, fwd.type.ret),
               fwd.loc, [f"p{i}" for i in range(len(params))] + [a.name for a in fwd.args])
    mapping = {a: b for a, b in zip(fwd.args, f.args[len(params):])}
    for op in fwd.body.ops:
        f.body.append(op.clone(mapping))
    tensor_lists_literal(module, f)
    env = {p: f.args[i] for i, p in enumerate(params)}
    _params_as_values(module, f, env, {})
    _check_no_hidden_params(module, f, set(params))
    module.add_func(f)


def _params_as_values(module, f, env: dict, memo: dict) -> None:
    """In f, each read of a parameter constant becomes its value in env (a function
    argument), and each call to a function that reads parameters, directly or through its
    own calls, calls a copy of it that takes them as extra arguments — a callee ember did
    not inline (a layer whose forward raises) must not hide a parameter from the gradient."""
    for op in list(f.walk()):
        if op.name == "const" and isinstance(op.attrs.get("value"), SymbolRef) and \
                op.attrs["value"].name in env:
            op.result.replace_all_uses_with(env[op.attrs["value"].name])
            op.erase()
        elif isinstance(op, CallOp):
            reads = sorted(_params_read(module, op.callee, set(env), set()))
            if reads:
                name = _with_params(module, op.callee, reads, memo)
                new = create_op("call", list(op.operands) + [env[p] for p in reads],
                                [r.type for r in op.results], {"callee": SymbolRef(name)}, [],
                                op.loc)
                op.parent.insert_before(op, new)
                op.replace_with(new.results)


def _params_read(module, name: str, params: set, seen: set) -> set:
    """The parameter symbols function `name` reads, itself or through its calls."""
    f = module.funcs.get(name)
    if f is None or name in seen:
        return set()
    seen.add(name)
    out = set()
    for op in f.walk():
        if op.name == "const" and isinstance(op.attrs.get("value"), SymbolRef) and \
                op.attrs["value"].name in params:
            out.add(op.attrs["value"].name)
        elif isinstance(op, CallOp):
            out |= _params_read(module, op.callee, params, seen)
    return out


def _with_params(module, name: str, reads: list, memo: dict) -> str:
    """A copy of function `name` taking the parameters `reads` as trailing arguments."""
    key = (name, tuple(reads))
    if key in memo:
        return memo[key]
    src = module.funcs[name]
    new_name = f"{name}$params{len(memo)}"
    memo[key] = new_name
    types = tuple(src.type.params) + tuple(module.tensors[p].type for p in reads)
    g = FuncOp(new_name, T.FunctionType(types, src.type.ret), src.loc,
               [a.name for a in src.args] + [f"param{i}" for i in range(len(reads))])
    mapping = dict(zip(src.args, g.args))
    for op in src.body.ops:
        g.body.append(op.clone(mapping))
    _params_as_values(module, g, dict(zip(reads, g.args[len(src.args):])), memo)
    module.add_func(g)
    return new_name


_LIST_MUTATORS = ("list.append", "list.setitem", "list.insert", "list.pop", "list.delitem",
                  "list.extend", "list.clear", "list.remove", "list.reverse", "list.sort")


def tensor_lists_literal(module, f) -> None:
    """Each read of a module object's list of tensors (a recurrent layer's `_flat_weights`)
    that f only passes on becomes a list literal of the tensor constants, so that the
    parameters in it are the step's parameters and their gradients flow element-wise."""
    from ember.passes.freeze import const_object
    for op in list(f.walk()):
        if op.name != "obj.get" or not isinstance(op.result.type, T.ListType):
            continue
        obj = const_object(module, op.operands[0])
        if obj is None:
            continue
        value = obj.values[module.classes[obj.cls].field_index(op.attrs["field"])]
        if not isinstance(value, list) or not value or not all(
                isinstance(v, SymbolRef) and v.name in module.tensors for v in value):
            continue
        if any(u.op.name in _LIST_MUTATORS for u in op.result.uses):
            continue
        b = IRBuilder(op.parent, op.loc)
        b.set_insertion_before(op)
        e = Emitter(b)
        items = [coerce(e, b.const(v, module.tensors[v.name].type), op.result.type.elem)
                 for v in value]
        lst = b.create("list.new", items, [op.result.type]).result
        src = op.operands[0]
        op.result.replace_all_uses_with(lst)
        op.erase()
        if not src.uses and src.op.parent is not None:
            src.op.erase()


def _check_no_hidden_params(module, f, params: set) -> None:
    """A parameter the forward reads through a module object (a recurrent layer's weight
    list) would get no gradient: refuse it rather than train it silently wrong."""
    from ember.errors import UnsupportedError
    for op in f.walk():
        ref = op.attrs.get("value") if op.name == "const" else None
        if isinstance(ref, SymbolRef) and ref.name in module.objects:
            hidden = _object_tensors(module, ref.name, set()) & params
            if hidden:
                raise UnsupportedError(
                    f"train_step: the forward reads {sorted(hidden)[0][len('self.'):]!r} "
                    f"through the module object @{ref.name} ({module.objects[ref.name].cls}), "
                    "which ember cannot differentiate yet")


def _object_tensors(module, name: str, seen: set) -> set:
    """The tensor symbols an object refers to, through its fields and nested objects."""
    if name in seen:
        return set()
    seen.add(name)
    out: set = set()

    def visit(v):
        if isinstance(v, SymbolRef):
            if v.name in module.tensors:
                out.add(v.name)
            elif v.name in module.objects:
                out.update(_object_tensors(module, v.name, seen))
        elif isinstance(v, (list, tuple)):
            for x in v:
                visit(x)
        elif isinstance(v, dict):
            for x in v.values():
                visit(x)

    for v in module.objects[name].values:
        visit(v)
    return out


def _objective(module, fwd, loss, ptypes, in_types, target_type) -> None:
    """loss(__model(params, inputs), target). The model's body is copied in rather than
    called: the adjoint of a call recomputes the callee, which would update batch norms'
    running statistics twice."""
    params = tuple(ptypes) + tuple(in_types) + (target_type,)
    f = FuncOp("__objective", T.FunctionType(params, loss.type.ret), fwd.loc)
    b = IRBuilder(f.body, fwd.loc)
    e = Emitter(b)
    model = module.funcs["__model"]
    ops = model.body.ops
    if all(op.name != "return" for op in ops[:-1] for op in op.walk()):
        mapping = {a: v for a, v in zip(model.args, f.args[:-1])}
        for op in ops[:-1]:
            b.insert(op.clone(mapping))
        out = mapping.get(ops[-1].operands[0], ops[-1].operands[0])
    else:
        out = b.create("call", list(f.args[:-1]), [fwd.type.ret],
                       {"callee": SymbolRef("__model")}).result
    if not T.is_subtype(out.type, loss.type.params[0]):
        raise UnsupportedError(
            f"train_step: the model returns {out.type}, but the loss takes "
            f"{loss.type.params[0]}: pass a loss function that takes the model's output "
            "(for a tuple, e.g. def loss(out: Tuple[Tensor, Tensor], target: Tensor) -> "
            "Tensor: return F.mse_loss(out[0], target))")
    out = coerce(e, out, loss.type.params[0])
    call = b.create("call", [out, f.args[-1]], [loss.type.ret],
                    {"callee": SymbolRef(loss.sym_name)})
    b.insert(create_op("return", [call.result], [], {}, [], fwd.loc))
    module.add_func(f)
    _inline_loss(module, call, loss)


def _inline_loss(module, call, loss) -> None:
    """The loss's body in place of its call when it has one return, at its end (the
    adjoint of a call recomputes the callee: the loss would run twice)."""
    from ember.passes.inline import inlinable, inline_call, recursive_functions
    if loss.sym_name not in recursive_functions(module) and inlinable(loss, 1 << 12):
        inline_call(call, loss)


def _step(module, fwd, vjp, params, names, ptypes, in_types, target_type, optimizer) -> None:
    # step(required inputs…, target, inputs with defaults…): step(x, target) when the
    # forward's other parameters have defaults (a transformer layer's masks)
    nreq = len(in_types) - len(fwd.defaults)
    types = tuple(in_types[:nreq]) + (target_type,) + tuple(in_types[nreq:])
    arg_names = [a.name for a in fwd.args]
    f = FuncOp("step", T.FunctionType(types, T.F64), fwd.loc,
               arg_names[:nreq] + ["target"] + arg_names[nreq:], defaults=fwd.defaults)
    f.attrs["qualname"] = "step"
    b = IRBuilder(f.body, fwd.loc)
    e = Emitter(b)
    pv = [b.const(SymbolRef(p), t) for p, t in zip(params, ptypes)]
    seed = coerce(e, e.op("tensor.from_float", 1.0), T.TENSOR)
    inputs = list(f.args[:nreq]) + list(f.args[nreq + 1:]) + [f.args[nreq]]
    r = b.create("call", pv + inputs + [seed], [vjp.type.ret],
                 {"callee": SymbolRef(vjp.sym_name)}).result
    if DROPOUT_COUNTER in module.tensors:
        dc = b.const(SymbolRef(DROPOUT_COUNTER), module.tensors[DROPOUT_COUNTER].type)
        e.op("tensor.add_scalar_", dc, 1)
    step = None
    if optimizer.counts_steps:
        sym = _state_tensor(module, STEP, np.zeros((), np.float64))
        sc = b.const(SymbolRef(sym), module.tensors[sym].type)
        e.op("tensor.copy_", sc, e.op("tensor.add_scalar", sc, 1.0))
        step = e.op("tensor.item_float", sc)
    for i, (p, name, v) in enumerate(zip(params, names, pv)):
        state = {}
        for s in optimizer.per_param:
            sym = _state_tensor(module, f"optim.{s}.{name}", np.zeros_like(module.tensors[p].data))
            state[s] = b.const(SymbolRef(sym), module.tensors[sym].type)
        optimizer.emit(e, v, e.tuple_get(r, 1 + i), state, step)
    value = e.op("tensor.item_float", e.tuple_get(r, 0))
    b.insert(create_op("return", [value], [], {}, [], fwd.loc))
    module.add_func(f)


def _torch_name(sym: str) -> str:
    parts = sym.split(".")[1:]
    return ".".join(p[1:] if p[:1] == "_" and p[1:].isdigit() else p for p in parts)


def _state_tensor(module, name: str, data) -> str:
    if name in module.tensors or name in module.objects:
        raise ValueError(f"tensor @{name} exists already")
    module.add_tensor(name, np.array(data))
    return name


def _state_dict(module, fwd) -> None:
    dtype = T.DictType(T.STR, T.TENSOR)
    f = FuncOp("state_dict", T.FunctionType((), dtype), fwd.loc)
    f.attrs["qualname"] = "state_dict"
    b = IRBuilder(f.body, fwd.loc)
    e = Emitter(b)
    items = []
    for sym, t in module.tensors.items():
        if not sym.startswith("self."):
            continue
        items.append(e.const(_torch_name(sym)))
        items.append(coerce(e, e.op("tensor.clone", b.const(SymbolRef(sym), t.type)), T.TENSOR))
    d = b.create("dict.new", items, [dtype]).result
    b.insert(create_op("return", [d], [], {}, [], fwd.loc))
    module.add_func(f)
