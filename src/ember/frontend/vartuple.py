"""`Tuple[T, ...]` parameters: a tuple of any length whose items are T.

ember's tuples have a length known at compile time, so such a parameter makes its
function compiled once per length it is called with (as `Any` parameters are compiled per
argument type, userfuncs.call_any): the instance's parameter has the type of the tuple the
call gives, once its items are checked against T. A CompilationUnit entry with such a parameter is compiled for
the length of the tuple Python passes (api/any_entry). A local `x: Tuple[T, ...] = v` takes
v's tuple type after checking its items.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import types as T


def variadic_item(node):
    """The item annotation of `Tuple[T, ...]` / `tuple[T, ...]` (an AST node), also inside
    `Optional[...]`, else None."""
    inner = _optional_inner(node)
    if inner is not None:
        return variadic_item(inner)
    if not isinstance(node, A.Subscript) or not isinstance(node.slice, A.Tuple):
        return None
    head = getattr(node.value, "id", None) or getattr(node.value, "attr", None)
    elts = node.slice.elts
    if head in ("Tuple", "tuple") and len(elts) == 2 and \
            isinstance(elts[1], A.Constant) and elts[1].value is ...:
        return elts[0]
    return None


def _optional_inner(node):
    """X of an `Optional[X]` annotation node, else None."""
    if isinstance(node, A.Subscript) and not isinstance(node.slice, A.Tuple) and \
            (getattr(node.value, "id", None) or getattr(node.value, "attr", None)) == \
            "Optional":
        return node.slice
    return None


def instance_type(em, ann, got, span, what):
    """The tuple type a `Tuple[T, ...]` annotation takes for a value of type `got`: got
    itself when each item is a T (or a number a call converts to T: CPython keeps the
    value as given), else an error."""
    item = em.ann.resolve(variadic_item(ann))
    if isinstance(item, ErrorType) or isinstance(got, ErrorType):
        return ERROR
    if got == T.NONE and _optional_inner(ann) is not None:
        return got  # None given for an Optional[Tuple[T, ...]]
    if not isinstance(got, T.TupleType):
        em.error(f"{what} is Tuple[{show(item)}, ...], but is given a value of type "
                 f"{show(got)}", span)
        return ERROR
    for e in got.elems:
        if not (T.is_subtype(e, item) or _converts(e, item)):
            em.error(f"{what} is Tuple[{show(item)}, ...], but is given {show(got)} (an "
                     f"item of type {show(e)})", span)
            return ERROR
    if _optional_inner(ann) is not None:
        return T.make_union([got, T.NONE])  # (its default may be None)
    return got  # the items keep their types, as CPython keeps the values given


def _converts(got, want) -> bool:
    """An int or bool item for a float, as a call converts its arguments."""
    return (got, want) in ((T.I64, T.F64), (T.BOOL, T.F64), (T.BOOL, T.I64),
                           (T.I64, T.C128), (T.F64, T.C128))


__all__ = ["variadic_item", "instance_type"]
