"""Tensor-specific typing: shape functions and indexing (completed with the tensor ops)."""

from __future__ import annotations

from ember.ir import types as T


def apply_shape_fn(em, d, operands, ret):
    """The result type of tensor operator d from its shape function (ret when unknown)."""
    from ember.ops.registry import ShapeMismatch  # noqa: F401 (raised through)
    info = [_arg_info(v) for v in operands]
    result = d.shape_fn(info)
    return _to_type(result, ret)


def _arg_info(v):
    from ember.ops.tensorinfo import ArgInfo
    t = v.type
    const = v.owner.value if getattr(v.owner, "name", None) == "const" else None
    if isinstance(t, T.TensorType):
        return ArgInfo(t.dtype and T.NUMPY_DTYPE[t.dtype], t.shape, None, True)
    return ArgInfo(None, None, const, False)


def _to_type(result, ret):
    from ember.ops.tensorinfo import TensorInfo
    if isinstance(result, TensorInfo):
        dtype = T.IR_DTYPE.get(result.dtype) if result.dtype else None
        return T.TensorType(dtype, tuple(result.shape) if result.shape is not None else None)
    if isinstance(result, tuple) and isinstance(ret, T.TupleType):
        return T.TupleType(tuple(_to_type(r, t) for r, t in zip(result, ret.elems)))
    return ret


def tensor_getitem(em, obj, index_node, node):
    return em.call_python_op("Tensor.__getitem__", [obj, em.value(index_node)], node)


def tensor_setitem(em, obj, index_node, value, node):
    em.call_python_op("Tensor.__setitem__", [obj, em.value(index_node), value], node)
