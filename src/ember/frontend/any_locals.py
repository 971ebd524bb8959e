"""A local variable annotated with `Any` inside a container: `d: Dict[str, Any] = {...}`.

TorchScript accepts `Any` as a container's element type (its RPC tests build keyword
dicts of mixed values that way). ember has no dynamically typed value, so the variable
takes the type of the value assigned, with the `Any` positions filled from it: the
display's elements, when their types differ, make a Union (`{"a": 1, "b": "x"}` under
`Dict[str, Any]` is a `Dict[str, Union[int, str]]`). The parts of the annotation that
are not `Any` must match the value as any annotation does.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import types as T


def s_any_local(em, s) -> None:
    """`x: <annotation holding Any> = value`."""
    em.union_literals = getattr(em, "union_literals", 0) + 1
    try:
        v = em.value(s.value)
    finally:
        em.union_literals -= 1
    t = _fill(em, s.annotation, v.type)
    if t is None:
        em.error(f"'{s.target.id}' is annotated {em.expr_text(s.annotation)}, but is given a "
                 f"value of type {show(v.type)}", s.value.span)
        t = ERROR
    em.write_var(s.target.id, v, s.value.span, declared_type=t)


def _fill(em, ann, got):
    """The annotation's type with its Any parts taken from `got`, or None on a mismatch."""
    if isinstance(got, ErrorType):
        return got
    if _is_any(em, ann):
        return got
    if not em.ann.mentions_any(ann):
        want = em.ann.resolve(ann)
        return want if want == got or T.is_subtype(got, want) else None
    head = ann.value.id if isinstance(ann, A.Subscript) and isinstance(ann.value, A.Name) \
        else None
    args = ann.slice.elts if isinstance(ann, A.Subscript) and isinstance(ann.slice, A.Tuple) \
        else ([ann.slice] if isinstance(ann, A.Subscript) else [])
    if head in ("List", "list") and isinstance(got, T.ListType) and len(args) == 1:
        e = _fill(em, args[0], got.elem)
        return T.ListType(e) if e is not None else None
    if head in ("Dict", "dict") and isinstance(got, T.DictType) and len(args) == 2:
        k, v = _fill(em, args[0], got.key), _fill(em, args[1], got.value)
        return T.DictType(k, v) if k is not None and v is not None else None
    if head in ("Tuple", "tuple") and isinstance(got, T.TupleType) and \
            len(args) == len(got.elems):
        parts = [_fill(em, a, e) for a, e in zip(args, got.elems)]
        return T.TupleType(tuple(parts)) if None not in parts else None
    return None


def _is_any(em, node) -> bool:
    return isinstance(node, (A.Name, A.Attribute)) and em.ann._name_of(node) == "Any"


def union_of(types):
    """The element type of a display whose elements have different types (inside an
    `Any`-annotated local): their Union, or None when one of them cannot be in a Union."""
    if any(isinstance(t, (T.FunctionType, T.VarType)) for t in types):
        return None
    return T.make_union(types)


__all__ = ["s_any_local", "union_of"]
