"""IR types: the static types of ember's language.

Types are immutable, hashable and compare structurally. Their printed form is
the IR's textual syntax (see docs/architecture.md):

    i64 f64 c128 bool str none exc dtype
    tensor  tensor<f32>  tensor<f32, [3, ?, N]>
    list<i64>  dict<str, f64>  tuple<i64, str>  optional<i64>  union<i64, str>
    fn<(i64, f64) -> bool>  !Point
"""

from __future__ import annotations

from dataclasses import dataclass

DTYPES = ("bool", "u8", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "c64", "c128")
"""Tensor element types, in IR spelling."""

NUMPY_DTYPE = {
    "bool": "bool", "u8": "uint8", "i8": "int8", "i16": "int16", "i32": "int32",
    "i64": "int64", "f16": "float16", "f32": "float32", "f64": "float64",
    "c64": "complex64", "c128": "complex128",
}
"""IR dtype -> numpy dtype name (the run-time representation of a dtype)."""

IR_DTYPE = {v: k for k, v in NUMPY_DTYPE.items()}


class Type:
    """Base class of all IR types."""

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<type {self}>"

    @property
    def is_refcounted(self) -> bool:
        """True for values worth freeing after their last use (tensors, containers)."""
        return False


@dataclass(frozen=True, slots=True)
class ScalarType(Type):
    """One of the atomic types: i64, f64, c128 (complex), bool, str, none, exc, dtype."""

    name: str

    def __str__(self) -> str:
        return self.name


I64 = ScalarType("i64")
F64 = ScalarType("f64")
C128 = ScalarType("c128")
"""Python's complex: two f64 parts."""
BOOL = ScalarType("bool")
STR = ScalarType("str")
NONE = ScalarType("none")
EXC = ScalarType("exc")
DTYPE = ScalarType("dtype")

SCALARS = {t.name: t for t in (I64, F64, C128, BOOL, STR, NONE, EXC, DTYPE)}


Dim = int | str | None
"""A tensor dimension: a known size, a symbol name, or None (unknown, printed `?`)."""


@dataclass(frozen=True, slots=True)
class TensorType(Type):
    """A tensor; `dtype` None means unknown, `shape` None means unknown rank."""

    dtype: str | None = None
    shape: tuple[Dim, ...] | None = None

    def __str__(self) -> str:
        if self.dtype is None and self.shape is None:
            return "tensor"
        parts = [self.dtype or "?"]
        if self.shape is not None:
            parts.append("[" + ", ".join(_dim(d) for d in self.shape) + "]")
        return "tensor<" + ", ".join(parts) + ">"

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def is_refcounted(self) -> bool:
        return True


def _dim(d: Dim) -> str:
    return "?" if d is None else str(d)


TENSOR = TensorType()


@dataclass(frozen=True, slots=True)
class ListType(Type):
    """A list; a tensor in its element type keeps its dtype but not its shape
    (container_elem): a list is mutable, and TorchScript's List[Tensor] takes any tensor."""

    elem: Type

    def __post_init__(self):
        object.__setattr__(self, "elem", container_elem(self.elem))

    def __str__(self) -> str:
        return f"list<{self.elem}>"

    @property
    def is_refcounted(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class VarTupleType(ListType):
    """A tuple whose length is known at run time only (`tuple(xs)` of a list, `zip(*m)`,
    `(*xs, y)`): a Python tuple at run time, read as a list is (len, indexing, slicing,
    iteration, `in`, comparisons, `+`, `*`, hash), and never changed. Python spells it
    Tuple[T, ...]."""

    def __str__(self) -> str:
        return f"vtuple<{self.elem}>"


def as_list(t: Type) -> Type:
    """The list type a copy of a value of type t has (`list(...)` of a tuple of run-time
    length is a list)."""
    return ListType(t.elem) if isinstance(t, VarTupleType) else t


@dataclass(frozen=True, slots=True)
class DictType(Type):
    """A dict; tensors in its key and value types keep their dtype, not their shape (as a
    list's elements: container_elem)."""

    key: Type
    value: Type

    def __post_init__(self):
        object.__setattr__(self, "key", container_elem(self.key))
        object.__setattr__(self, "value", container_elem(self.value))

    def __str__(self) -> str:
        return f"dict<{self.key}, {self.value}>"

    @property
    def is_refcounted(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class SetType(Type):
    """A Python set of hashable values (int, float, bool, str, tuples of those)."""

    elem: Type

    def __str__(self) -> str:
        return f"set<{self.elem}>"

    @property
    def is_refcounted(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class IterType(Type):
    """An iterator (iter(), map(), filter(), zip(), enumerate(), reversed() as values): each
    element is produced once, when asked for."""

    elem: Type

    def __str__(self) -> str:
        return f"iter<{self.elem}>"

    @property
    def is_refcounted(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class TupleType(Type):
    elems: tuple[Type, ...]

    def __str__(self) -> str:
        return "tuple<" + ", ".join(map(str, self.elems)) + ">"

    @property
    def is_refcounted(self) -> bool:
        return any(e.is_refcounted for e in self.elems)


@dataclass(frozen=True, slots=True)
class OptionalType(Type):
    elem: Type

    def __str__(self) -> str:
        return f"optional<{self.elem}>"

    @property
    def is_refcounted(self) -> bool:
        return self.elem.is_refcounted


@dataclass(frozen=True, slots=True)
class UnionType(Type):
    """A union of two or more non-union, non-optional members, sorted by printed form."""

    members: tuple[Type, ...]

    def __str__(self) -> str:
        return "union<" + ", ".join(map(str, self.members)) + ">"

    @property
    def is_refcounted(self) -> bool:
        return any(m.is_refcounted for m in self.members)


@dataclass(frozen=True, slots=True)
class FunctionType(Type):
    params: tuple[Type, ...]
    ret: Type

    def __str__(self) -> str:
        return "fn<(" + ", ".join(map(str, self.params)) + f") -> {self.ret}>"


@dataclass(frozen=True, slots=True)
class VarType(Type):
    """A mutable slot holding a `elem` (see the `var.*` ops)."""

    elem: Type

    def __str__(self) -> str:
        return f"var<{self.elem}>"


@dataclass(frozen=True, slots=True)
class ClassType(Type):
    """A user class, NamedTuple or module type, declared in the IR module by name."""

    name: str

    def __str__(self) -> str:
        return f"!{self.name}"

    @property
    def is_refcounted(self) -> bool:
        return True


def container_elem(t: Type) -> Type:
    """The element type a mutable container keeps for values of type t: a tensor's shape
    is dropped (also inside tuples, Optional and Union members), so that a list made of
    tensors of one shape can be given tensors of others, as TorchScript's List[Tensor]
    can; the dtype stays (a list of int64 tensors has int64 elements)."""
    if isinstance(t, TensorType):
        return t if t.shape is None else TensorType(t.dtype, None)
    if isinstance(t, TupleType):
        elems = tuple(container_elem(e) for e in t.elems)
        return t if elems == t.elems else TupleType(elems)
    if isinstance(t, OptionalType):
        e = container_elem(t.elem)
        return t if e == t.elem else OptionalType(e)
    if isinstance(t, UnionType):
        members = tuple(container_elem(m) for m in t.members)
        return t if members == t.members else make_union(members)
    return t


def make_union(types) -> Type:
    """The union of `types`: flattened, deduplicated, Optional for `T | none`.

    A single member is returned as itself; `none` with one other member gives
    `optional<T>`.
    """
    flat: list[Type] = []
    for t in types:
        if isinstance(t, UnionType):
            flat.extend(t.members)
        elif isinstance(t, OptionalType):
            flat.extend((t.elem, NONE))
        else:
            flat.append(t)
    uniq = sorted(set(flat), key=str)
    has_none = NONE in uniq
    rest = [t for t in uniq if t != NONE]
    if not rest:
        return NONE
    core = rest[0] if len(rest) == 1 else UnionType(tuple(rest))
    if has_none:
        if isinstance(core, UnionType):
            return UnionType(tuple(sorted(core.members + (NONE,), key=str)))
        return OptionalType(core)
    return core


def members(t: Type) -> tuple[Type, ...]:
    """The alternatives a value of type t may be (a non-union type is its own member)."""
    if isinstance(t, OptionalType):
        return (t.elem, NONE)
    if isinstance(t, UnionType):
        return t.members
    return (t,)


def tensor_matches(sub: TensorType, sup: TensorType) -> bool:
    """True if every tensor of type `sub` is also of type `sup` (sup less specific)."""
    if sup.dtype is not None and sub.dtype != sup.dtype:
        return False
    if sup.shape is None:
        return True
    if sub.shape is None or len(sub.shape) != len(sup.shape):
        return False
    return all(b is None or a == b for a, b in zip(sub.shape, sup.shape))


def is_subtype(sub: Type, sup: Type) -> bool:
    """True if a value of type `sub` may be used where `sup` is expected (no conversion)."""
    if sub == sup:
        return True
    if isinstance(sub, TensorType) and isinstance(sup, TensorType):
        return tensor_matches(sub, sup)
    if isinstance(sup, (OptionalType, UnionType)):
        return all(any(is_subtype(m, s) for s in members(sup)) for m in members(sub))
    if isinstance(sub, TupleType) and isinstance(sup, TupleType):
        return len(sub.elems) == len(sup.elems) and all(
            is_subtype(a, b) for a, b in zip(sub.elems, sup.elems))
    if isinstance(sub, TupleType) and isinstance(sup, VarTupleType):
        return all(is_subtype(e, sup.elem) for e in sub.elems)  # both Python tuples
    if isinstance(sub, ListType) and isinstance(sup, ListType):
        # Lists are mutable: only tensor refinement is allowed (like TorchScript); a list is
        # no tuple of run-time length, nor the other way round.
        return type(sub) is type(sup) and _tensor_only_refinement(sub.elem, sup.elem)
    if isinstance(sub, DictType) and isinstance(sup, DictType):
        return sub.key == sup.key and _tensor_only_refinement(sub.value, sup.value)
    if isinstance(sub, (SetType, IterType)) and type(sup) is type(sub):
        return sub.elem == sup.elem
    return False


def _tensor_only_refinement(a: Type, b: Type) -> bool:
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return tensor_matches(a, b)
    return a == b


def join(a: Type, b: Type) -> Type | None:
    """The least type both a and b convert to without a value conversion, or None.

    Tensor types join to their common part (dtype and dims kept where equal).
    """
    if is_subtype(a, b):
        return b
    if is_subtype(b, a):
        return a
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return tensor_join(a, b)
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.elems) == len(b.elems):
        # Tuples are immutable, so they join element by element (as in TorchScript).
        elems = [join(x, y) for x, y in zip(a.elems, b.elems)]
        return TupleType(tuple(elems)) if None not in elems else None
    if a == NONE or b == NONE:
        other = b if a == NONE else a
        return make_union([other, NONE])
    if isinstance(a, OptionalType) or isinstance(b, OptionalType):
        # Optional[Tensor[f32]] and Tensor: Optional[Tensor] (their values' common part)
        inner = join(a.elem if isinstance(a, OptionalType) else a,
                     b.elem if isinstance(b, OptionalType) else b)
        return make_union([inner, NONE]) if inner is not None else None
    return None


def tensor_join(a: TensorType, b: TensorType) -> TensorType:
    """The most specific tensor type that both a and b are."""
    dtype = a.dtype if a.dtype == b.dtype else None
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        return TensorType(dtype, None)
    return TensorType(dtype, tuple(x if x == y else None for x, y in zip(a.shape, b.shape)))
