"""Tensor-specific typing: shape functions, indexing, list-size varargs.

Result types of tensor operators come from their shape functions
(`ember.ops` OpDef.shape_fn): each argument is described by an ArgInfo (dtype
and shape of a tensor with symbolic dims, or the value of a constant), and a
ShapeMismatch the function proves becomes a ShapeError at the call.

Indexing `x[i, 1:n, None, ..., mask]` is described statically by a spec string
(one item per position: "i" int, "s" + start/stop/step presence flags, "n"
None, "e" Ellipsis, "t" tensor) plus the list of int operands and the list of
tensor operands — the contract of the `tensor.index` / `tensor.index_put` ops.
"""

from __future__ import annotations

from ember import ops
from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T
from ember.ir.core import OpResult

_KIND = {T.I64: "int", T.F64: "float", T.C128: "complex", T.BOOL: "bool", T.STR: "str", T.NONE: "none",
         T.DTYPE: "dtype"}


def apply_shape_fn(em, d, operands, ret):
    """The result type of tensor operator d from its shape function (ret when unknown)."""
    info = [_arg_info(v) for v in operands]
    result = d.shape_fn(info)
    return _to_type(result, ret)


def _const_value(v):
    """The compile-time value of an operand: a const, a list.new/tuple.new of consts, or a
    pure scalar operator on consts (-1 is int.neg of 1); None if not known."""
    op = v.op if isinstance(v, OpResult) else None
    name = op.name if op is not None else None
    if name == "const":
        return op.attrs.get("value")
    if name in ("list.new", "tuple.new"):
        items = [_const_value(x) for x in op.operands]
        if any(x is None for x in items):
            return None
        return items if name == "list.new" else tuple(items)
    if name == "widen" and op.operands:
        return _const_value(op.operands[0])
    if name == "tuple.get" and op.operands:  # an item of a tuple literal (x.view((2, -1)))
        i = op.attrs.get("index")
        src = op.operands[0]
        if isinstance(src, OpResult) and src.op.name == "tuple.new" and isinstance(i, int) \
                and 0 <= i < len(src.op.operands):  # a, b = "const", x: a is known
            return _const_value(src.op.operands[i])
        whole = _const_value(op.operands[0])
        return whole[i] if isinstance(whole, tuple) and isinstance(i, int) and \
            0 <= i < len(whole) else None
    return _folded(op)


_FOLDABLE = (int, float, bool, str)


def _folded(op):
    """The value of a pure scalar operator whose operands are constant numbers, or None."""
    d = ops.get(op.name) if op is not None else None
    if d is None or not d.pure or not d.fold or d.name.startswith("tensor.") or \
            len(op.operands) > 2 or not (op.operands or not d.schema.params):
        return None
    args = [_const_value(x) for x in op.operands]
    if any(type(a) not in _FOLDABLE for a in args):
        return None
    try:
        value = d.kernel(*args)
    except Exception:  # noqa: BLE001 - it raises at run time; nothing known here
        return None
    return value if type(value) in _FOLDABLE else None


def _arg_info(v):
    from ember.ops.tensorinfo import ArgInfo
    t = v.type
    if isinstance(t, T.TensorType):
        dtype = T.NUMPY_DTYPE[t.dtype] if t.dtype else None
        return ArgInfo(dtype, t.shape, None, True, "tensor")
    kind = _KIND.get(t)
    if kind is None:
        if isinstance(t, T.ListType):
            kind = "list"
        elif isinstance(t, T.OptionalType):
            kind = _KIND.get(t.elem, "optional")
        elif isinstance(t, T.TupleType):
            kind = "tuple"
    return ArgInfo(None, None, _const_value(v), False, kind, _list_items(v))


def _list_items(v):
    """One ArgInfo per element of a list/tuple literal operand (torch.cat([a, b]),
    torch.zeros(n, 4)), None for any other value."""
    op = v.op if isinstance(v, OpResult) else None
    if op is None or op.name not in ("list.new", "tuple.new"):
        return None
    return tuple(_arg_info(_unwidened(x)) for x in op.operands)


def _unwidened(v):
    """v before a widen (list elements are widened to the list's joined element type)."""
    while isinstance(v, OpResult) and v.op.name == "widen" and v.op.operands:
        v = v.op.operands[0]
    return v


def _to_type(result, ret):
    from ember.ops.tensorinfo import TensorInfo
    if isinstance(result, TensorInfo):
        dtype = T.IR_DTYPE.get(result.dtype) if result.dtype else None
        shape = tuple(result.shape) if result.shape is not None else None
        return T.TensorType(dtype, shape)
    if isinstance(result, tuple) and isinstance(ret, T.TupleType):
        return T.TupleType(tuple(_to_type(r, t) for r, t in zip(result, ret.elems)))
    return ret


# ----------------------------------------------------------------------------- indexing


_OPEN = 2 ** 63 - 1
"""The upper bound an Optional[int] slice bound that is None stands for (x[a:None])."""


def _index_parts(em, index_node):
    """(spec, int values, tensor values) of an index expression, or None after an error."""
    items = index_node.elts if isinstance(index_node, A.Tuple) else [index_node]
    spec, ints, tensors = [], [], []
    for item in items:
        item = em.slice_object(item) or item  # x[slice(1, n)], x[s, 0]
        if isinstance(item, A.Constant) and item.value is None:
            spec.append("n")
        elif isinstance(item, A.Constant) and item.value is ...:
            spec.append("e")
        elif isinstance(item, A.Slice):
            flags = ""
            for bound, absent in ((item.lower, 0), (item.upper, _OPEN), (item.step, 1)):
                v = None if bound is None else em.value(bound)
                if v is None or v.type == T.NONE:
                    flags += "0"
                    continue
                if isinstance(v.type, ErrorType):
                    return None
                if v.type == T.OptionalType(T.I64):  # None at run time: an open bound
                    loc = em.loc(bound)
                    v = em.b.kernel("int.or_default", [v, em.b.const(absent, T.I64, loc)],
                                    T.I64, loc)
                if v.type not in (T.I64, T.BOOL):
                    em.error(f"tensor slice bounds must be ints, not {show(v.type)}", bound.span)
                    return None
                ints.append(em.to_int(v, bound))
                flags += "1"
            spec.append("s" + flags)
        else:
            v = em.value(item)
            if isinstance(v.type, ErrorType):
                return None
            if v.type in (T.I64, T.BOOL):
                spec.append("i")
                ints.append(em.to_int(v, item))
            elif isinstance(v.type, T.TensorType):
                spec.append("t")
                tensors.append(v)
            elif isinstance(v.type, T.ListType) and v.type.elem in (T.I64, T.BOOL):
                spec.append("t")  # x[[0, 2]], x[mask_list]: as torch, an index tensor
                kind = "ints" if v.type.elem == T.I64 else "bools"
                dt = "i64" if kind == "ints" else "bool"
                tensors.append(em.b.kernel(f"tensor.index_{kind}", [v],
                                           T.TensorType(dt, (None,)), em.loc(item)))
            elif _number_list(v.type) and not isinstance(index_node, A.Tuple) and \
                    isinstance(v.type.elem, T.ListType):
                em.unsupported("a list of lists as the whole index: torch reads it as a tuple "
                               "of index lists, TorchScript as one index tensor; write "
                               "x[a, b] or x[torch.tensor(...)]", item.span)
                return None
            elif _number_list(v.type):
                spec.append("t")  # x[[[0, 1], [1, 0]]], x[[0.5]]: torch.tensor of the list
                t = em.call_python_op("torch.tensor", [v], item, {})
                if _number_list(v.type) == T.F64:  # torch truncates a list of floats
                    t = em.call_python_op("Tensor.long", [t], item, {}, receiver=True)
                tensors.append(t)
            else:
                em.error(f"a tensor index must be an int, a slice, None, ..., a tensor or a "
                         f"list of ints or bools, "
                         f"not {show(v.type)}", item.span)
                return None
    return ",".join(spec), ints, tensors


def _number_list(t) -> bool:
    """The element type of a (nested) list of ints, bools or floats (an index torch turns
    into a tensor), else None."""
    while isinstance(t, T.ListType):
        t = t.elem
    return t if t in (T.I64, T.BOOL, T.F64) else None


def _index_operands(em, obj, parts, node):
    spec, ints, tensors = parts
    loc = em.loc(node)
    spec_v = em.b.const(spec, T.STR, loc)
    ints_v = em.b.create("list.new", ints, [T.ListType(T.I64)], loc=loc).result
    tensors_v = em.b.create("list.new", tensors, [T.ListType(T.TENSOR)], loc=loc).result
    return [obj, spec_v, ints_v, tensors_v]


def tensor_getitem(em, obj, index_node, node):
    if "tensor.index" not in ops.REGISTRY:
        return em.unsupported("tensor indexing needs the tensor operators (tensor.index)",
                              node.span)
    parts = _index_parts(em, index_node)
    if parts is None:
        from ember.frontend.function import Poison
        return Poison()
    return em.emit_overload(ops.get("tensor.index"), _index_operands(em, obj, parts, node),
                            {}, node)


def tensor_setitem(em, obj, index_node, value, node):
    if "tensor.index_put" not in ops.REGISTRY:
        em.unsupported("tensor item assignment needs the tensor operators (tensor.index_put)",
                       node.span)
        return
    parts = _index_parts(em, index_node)
    if parts is None or isinstance(value.type, ErrorType):
        return
    operands = _index_operands(em, obj, parts, node)
    if isinstance(value.type, T.TensorType):
        name = "tensor.index_put"
    elif value.type in (T.I64, T.F64, T.C128, T.BOOL):
        name = "tensor.index_put_scalar"
    else:
        em.error(f"cannot store {show(value.type)} into a tensor", node.span)
        return
    em.emit_overload(ops.get(name), operands + [value], {}, node)
