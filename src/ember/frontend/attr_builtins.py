"""`hasattr(x, "name")` and `getattr(x, "name"[, default])` with a constant name, as
TorchScript has them: answered at compile time from x's static type (a class's fields,
methods and constants; a module's attributes; a builtin type's own attributes, CPython's
answer for that type; a Tensor's methods and properties ember implements)."""

from __future__ import annotations

from ember import ops
from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType
from ember.ir import types as T

_PY_TYPES = {T.I64: int, T.F64: float, T.STR: str, T.BOOL: bool, T.C128: complex,
             T.NONE: type(None)}
_PY_CONTAINERS = ((T.ListType, list), (T.DictType, dict), (T.TupleType, tuple),
                  (T.SetType, set))


def _name(em, node, fname):
    if len(node.args) < 2 or node.keywords or not isinstance(node.args[1], A.Constant) or \
            not isinstance(node.args[1].value, str):
        em.unsupported(f"{fname}() needs an object and a constant attribute name "
                       f"({fname}(x, \"name\"))", node.span)
        return None
    return node.args[1].value


def has_attribute(em, t, name) -> bool | None:
    """Does a value of static type t have attribute `name`? (None: ember cannot tell.)"""
    if isinstance(t, T.ClassType):
        decl = em.c.module.classes.get(t.name)
        from ember.frontend.classes import _class_info
        info = _class_info(em, t.name)
        return bool(decl is not None and decl.field_type(name) is not None or
                    info is not None and (name in info.methods or name in info.constants))
    if isinstance(t, T.TensorType):
        from ember.frontend.exprs import _TENSOR_PROPERTIES
        return name in _TENSOR_PROPERTIES or bool(ops.by_python_name(f"Tensor.{name}"))
    py = _PY_TYPES.get(t)
    if py is None:
        py = next((p for k, p in _PY_CONTAINERS if isinstance(t, k)), None)
    return hasattr(py, name) if py is not None else None


def b_hasattr(em, node, expected):
    name = _name(em, node, "hasattr")
    if name is None:
        return em.b.const(False, T.BOOL, em.loc(node))
    if len(node.args) != 2:
        return em.error("hasattr() takes exactly 2 arguments", node.span)
    v = em.value(node.args[0])
    if isinstance(v.type, ErrorType):
        return v
    answer = has_attribute(em, v.type, name)
    if answer is None:
        return em.unsupported(f"hasattr() of a value of type {v.type} is not supported",
                              node.args[0].span)
    return em.b.const(answer, T.BOOL, em.loc(node))


def b_getattr(em, node, expected):
    name = _name(em, node, "getattr")
    if name is None or len(node.args) > 3:
        return em.error("getattr() takes 2 or 3 arguments", node.span) if name else \
            em.b.const(None, T.NONE, em.loc(node))
    attr = A.Attribute(node.span, node.args[0], name)
    if len(node.args) == 3:
        v = em.value(node.args[0])
        if not isinstance(v.type, ErrorType) and has_attribute(em, v.type, name) is False:
            return em.value(node.args[2], expected)
    return em.value(attr, expected)
