"""Types in the frontend: annotations -> IR types, schema types -> IR types, matching.

`ErrorType` is the type of a poisoned value (an expression that already had
an error); nothing is reported about it again, so one mistake gives one
message.
"""

from __future__ import annotations

from ember.ir import types as T
from ember.ops.schema import SType


class ErrorType(T.Type):
    """The type of an expression that already failed to type-check."""

    __slots__ = ()

    def __str__(self):
        return "<error>"

    def __eq__(self, other):
        return isinstance(other, ErrorType)

    def __hash__(self):
        return 0


ERROR = ErrorType()


class AnyType(T.Type):
    """Only inside schema matching: a parameter that accepts every type."""

    __slots__ = ()

    def __str__(self):
        return "any"


ANY = AnyType()

_PY_NAMES = {T.I64: "int", T.F64: "float", T.C128: "complex", T.BOOL: "bool", T.STR: "str", T.NONE: "None",
             T.EXC: "Exception", T.DTYPE: "dtype"}


def show(t: T.Type) -> str:
    """A type in Python's spelling, for error messages: List[int], Optional[str], Tensor."""
    if t in _PY_NAMES:
        return _PY_NAMES[t]
    if isinstance(t, T.TensorType):
        return "Tensor" if t == T.TENSOR else f"Tensor[{str(t)[7:-1]}]"
    if isinstance(t, T.VarTupleType):
        return f"Tuple[{show(t.elem)}, ...]"
    if isinstance(t, T.ListType):
        return f"List[{show(t.elem)}]"
    if isinstance(t, T.DictType):
        return f"Dict[{show(t.key)}, {show(t.value)}]"
    if isinstance(t, T.SetType):
        return f"Set[{show(t.elem)}]"
    if isinstance(t, T.IterType):
        return f"Iterator[{show(t.elem)}]"
    if isinstance(t, T.TupleType):
        return f"Tuple[{', '.join(show(e) for e in t.elems) or '()'}]"
    if isinstance(t, T.OptionalType):
        return f"Optional[{show(t.elem)}]"
    if isinstance(t, T.UnionType):
        return f"Union[{', '.join(show(m) for m in t.members)}]"
    if isinstance(t, T.FunctionType):
        return f"Callable[[{', '.join(show(p) for p in t.params)}], {show(t.ret)}]"
    if isinstance(t, T.ClassType):
        return t.name
    return str(t)


# ----------------------------------------------------------------------------- schema types

_BASE = {"int": T.I64, "float": T.F64, "complex": T.C128, "bool": T.BOOL, "str": T.STR, "None": T.NONE,
         "Tensor": T.TENSOR, "ScalarType": T.DTYPE, "exc": T.EXC}


def numeric_rank(t: T.Type) -> int | None:
    return {T.BOOL: 0, T.I64: 1, T.F64: 2, T.C128: 3}.get(t)


class Matcher:
    """Matches argument types against schema types, binding type variables.

    Implicit conversions allowed at a call: bool -> int -> float -> complex (Python's
    numeric tower), a value to Optional/Union of its type, a narrower tensor
    type to a wider one. `conversions` collects (arg index, target type).
    """

    def __init__(self):
        self.bindings: dict[str, T.Type] = {}

    def match(self, arg: T.Type, p: SType) -> T.Type | None:
        """The IR type the argument must be converted to, or None if it cannot match."""
        if isinstance(arg, ErrorType):
            return arg
        name = p.name
        if p.is_var:
            bound = self.bindings.get(name)
            if bound is None:
                self.bindings[name] = arg
                return arg
            # No numeric promotion to a type variable: list.append(xs: List[float], 1)
            # would store 1.0 where Python stores 1, max(1.5, 2) would give 2.0.
            return bound if T.is_subtype(arg, bound) else None
        if name == "Any":
            return arg
        if name == "Scalar":  # a Python number, kept as it is (torch's Scalar)
            return arg if numeric_rank(arg) is not None else None
        if name in _BASE:
            want = _BASE[name]
            if isinstance(want, T.TensorType):
                return arg if isinstance(arg, T.TensorType) else None
            if arg == want:
                return want
            return _promote(arg, want)
        return self._match_compound(arg, p)

    def _match_compound(self, arg, p):
        name = p.name
        if name == "Optional":
            if arg == T.NONE:
                return T.OptionalType(self.resolve(p.args[0])) if self._resolvable(p.args[0]) \
                    else arg
            inner = arg.elem if isinstance(arg, T.OptionalType) else arg
            got = self.match(inner, p.args[0])
            if got is None:
                return None
            return T.OptionalType(got) if isinstance(arg, T.OptionalType) else got
        if name == "List" and isinstance(arg, T.ListType):
            return self._invariant(arg, arg.elem, p.args[0], T.ListType)
        if name == "Iterator" and isinstance(arg, T.IterType):
            return arg if self.match(arg.elem, p.args[0]) == arg.elem else None
        if name == "Set" and isinstance(arg, T.SetType):
            return arg if self.match(arg.elem, p.args[0]) == arg.elem else None
        if name == "Dict" and isinstance(arg, T.DictType):
            k = self.match(arg.key, p.args[0])
            v = self.match(arg.value, p.args[1])
            if k == arg.key and v == arg.value:
                return arg
            return None
        if name == "Tuple" and isinstance(arg, T.TupleType) and len(arg.elems) == len(p.args):
            elems = [self.match(a, s) for a, s in zip(arg.elems, p.args)]
            return None if None in elems else T.TupleType(tuple(elems))
        if name == "Union":
            for s in p.args:
                got = self.match(arg, s)
                if got is not None:
                    return got
            return None
        if name == "Callable" and isinstance(arg, T.FunctionType):
            *ps, r = p.args
            if len(ps) != len(arg.params):
                return None
            for a, s in zip(arg.params, ps):
                if self.match(a, s) != a:
                    return None
            return arg if self.match(arg.ret, r) is not None else None
        return None

    def _invariant(self, arg, elem, p_elem, make):
        got = self.match(elem, p_elem)
        if got == elem or (isinstance(elem, T.TensorType) and isinstance(got, T.TensorType)):
            return arg
        return None

    def describe(self, p: SType) -> str:
        """A schema type for a message: type variables bound so far are shown resolved."""
        if self._resolvable(p):
            return show(self.resolve(p))
        return str(p)

    def _resolvable(self, p: SType) -> bool:
        if p.name == "Scalar":
            return False
        if p.is_var:
            return p.name in self.bindings
        return all(self._resolvable(a) for a in p.args)

    def resolve(self, p: SType) -> T.Type:
        """The IR type of a schema type under the current bindings (unbound vars: ANY)."""
        if p.is_var:
            return self.bindings.get(p.name, ANY)
        if p.name in _BASE:
            return _BASE[p.name]
        if p.name in ("Any", "Scalar"):
            return ANY
        args = [self.resolve(a) for a in p.args]
        if p.name == "List":
            return T.ListType(args[0])
        if p.name == "Dict":
            return T.DictType(args[0], args[1])
        if p.name == "Set":
            return T.SetType(args[0])
        if p.name == "Iterator":
            return T.IterType(args[0])
        if p.name == "Tuple":
            return T.TupleType(tuple(args))
        if p.name == "Optional":
            return T.make_union([args[0], T.NONE])
        if p.name == "Union":
            return T.make_union(args)
        if p.name == "Callable":
            return T.FunctionType(tuple(args[:-1]), args[-1])
        raise ValueError(f"unknown schema type {p}")


def _promote(arg: T.Type, want: T.Type) -> T.Type | None:
    """want if arg converts to it implicitly (bool -> int -> float), else None."""
    ra, rw = numeric_rank(arg), numeric_rank(want)
    if ra is not None and rw is not None and ra < rw:
        return want
    if T.is_subtype(arg, want):
        return want
    return None


def contains_any(t) -> bool:
    if t is None or not isinstance(t, T.Type):
        return False
    if isinstance(t, AnyType):
        return True
    for attr in ("elem", "key", "value", "ret"):
        if contains_any(getattr(t, attr, None)):
            return True
    for attr in ("elems", "members", "params"):
        if any(contains_any(x) for x in getattr(t, attr, ()) or ()):
            return True
    return False
