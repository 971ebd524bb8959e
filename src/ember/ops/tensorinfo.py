"""Compile-time tensor facts for shape functions: dtype and shape, with symbolic dims.

A dim is an int (known), a str (a symbol: equal symbols are equal sizes), or
None (unknown). Shape functions get one ArgInfo per operator argument and
return a TensorInfo (or a tuple of them); they raise ShapeMismatch only for a
mismatch they can prove.

Dtypes are numpy dtype names ("float32"). The promotion rules are torch's
(`torch.result_type`), which differ from numpy's in four ways: a Python
float scalar makes an int/bool tensor float32 (the default dtype), a
zero-dim tensor does not widen a dimensioned tensor of the same category
(float32 [3] + float64 [] is float32), float16 with any int is float16, and a
lower-priority complex operand keeps a float tensor's precision (float64 [3] * 1j is
complex128, float32 [3] * complex128 [] is complex64). A Python complex scalar takes part
as complex64 (the default complex dtype). complex32 (ComplexHalf) does not exist in
numpy: float16 with a complex operand gives complex64.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ops.registry import ShapeMismatch


@dataclass(frozen=True)
class TensorInfo:
    dtype: str | None
    """numpy dtype name ("float32"), None if unknown."""
    shape: tuple | None
    """One entry per dim (int, symbol str, or None); None if the rank is unknown."""


@dataclass(frozen=True)
class ArgInfo:
    dtype: str | None
    shape: tuple | None
    const: object
    """The value of a constant non-tensor argument, else None."""
    is_tensor: bool
    kind: str | None = None
    """Non-tensor arguments: "int", "float", "bool", "str", "none", "list", "dtype", ..."""
    items: tuple | None = None
    """For a list literal of tensors (torch.cat([a, b])): one ArgInfo per element."""


UNKNOWN = TensorInfo(None, None)

FLOAT = frozenset({"float16", "float32", "float64"})
COMPLEX = frozenset({"complex64", "complex128"})
INTEGRAL = frozenset({"uint8", "int8", "int16", "int32", "int64"})
_BITS = {"bool": 1, "uint8": 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
         "float16": 16, "float32": 32, "float64": 64, "complex64": 64, "complex128": 128}
_TO_COMPLEX = {"float16": "complex64", "float32": "complex64", "float64": "complex128"}


def category(dtype: str) -> int:
    """0 bool, 1 integral, 2 floating, 3 complex (torch's promotion categories)."""
    if dtype in COMPLEX:
        return 3
    return 2 if dtype in FLOAT else (0 if dtype == "bool" else 1)


def to_complex(dtype: str) -> str:
    """The complex dtype holding a float dtype's values (complex dtypes unchanged)."""
    return _TO_COMPLEX.get(dtype, dtype if dtype in COMPLEX else "complex64")


def promote_types(a: str | None, b: str | None) -> str | None:
    """torch.promote_types for two dtypes (None if either is unknown)."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    ca, cb = category(a), category(b)
    if 3 in (ca, cb):  # complex64 with float64 is complex128
        c, other = (a, b) if ca == 3 else (b, a)
        if category(other) == 3 or other == "float64":
            return "complex128" if "complex128" in (c, other) or other == "float64" else c
        return c
    if ca != cb:
        return a if ca > cb else b
    if ca == 2 or "uint8" not in (a, b):
        return a if _BITS[a] >= _BITS[b] else b
    other = b if a == "uint8" else a
    return "int16" if other == "int8" else other


promote = promote_types


def _combine(higher: str | None, lower: str | None) -> str | None:
    """torch's combine_categories: a lower-priority operand only widens across categories."""
    if higher is None:
        return lower
    if lower is None or category(higher) == 3:
        return higher
    if category(lower) == 3:  # a float keeps its precision, as a complex dtype
        return to_complex(higher) if category(higher) == 2 else lower
    if category(higher) == 2:
        return higher
    if higher == "bool" or category(lower) == 2:
        return promote_types(higher, lower)
    return higher


SCALAR_DTYPE = {"bool": "bool", "int": "int64", "float": "float32", "complex": "complex64"}
"""The dtype a Python scalar takes part in promotion as (float: torch's default dtype)."""


def result_type(dims=(), zeros=(), scalars=()) -> str:
    """torch.result_type of dimensioned tensors, zero-dim tensors and Python scalars.

    `dims`/`zeros` are dtype names; `scalars` are "bool", "int", "float" or "complex"."""
    state = [None, None, None]
    for level, group in enumerate((dims, zeros, [SCALAR_DTYPE[s] for s in scalars])):
        for d in group:
            state[level] = d if state[level] is None else promote_types(state[level], d)
    return _combine(state[0], _combine(state[1], state[2]))


def scalar_kind(arg: ArgInfo) -> str | None:
    """"bool", "int", "float" or "complex" for a Python-number argument, None if it is
    not one."""
    v = arg.const
    if isinstance(v, bool) or arg.kind == "bool":
        return "bool"
    if isinstance(v, int) or arg.kind == "int":
        return "int"
    if isinstance(v, float) or arg.kind == "float":
        return "float"
    if isinstance(v, complex) or arg.kind == "complex":
        return "complex"
    return None


def infer_result_type(args) -> str | None:
    """result_type of tensor and scalar ArgInfos; None if a tensor's dtype is unknown or
    the answer depends on a rank that is unknown (a zero-dim tensor promotes differently)."""
    fixed, unsure, scalars = [], [], []
    for a in args:
        if not a.is_tensor:
            k = scalar_kind(a)
            if k is not None:
                scalars.append(k)
            continue
        if a.dtype is None:
            return None
        if a.shape is None:
            unsure.append(a.dtype)
        else:
            fixed.append((a.dtype, len(a.shape) == 0))
    answers = set()
    for mask in range(1 << len(unsure)):
        both = fixed + [(d, bool(mask >> i & 1)) for i, d in enumerate(unsure)]
        answers.add(result_type([d for d, z in both if not z], [d for d, z in both if z],
                                scalars))
        if len(answers) > 1:
            return None
    return answers.pop() if answers else None


def scalar_result(dtype: str | None, scalar) -> str | None:
    """The dtype of tensor (dim) ⊕ Python scalar (a value, or its kind name)."""
    if dtype is None:
        return None
    kind = scalar if isinstance(scalar, str) else type(scalar).__name__
    if kind not in SCALAR_DTYPE:
        return dtype
    return result_type([dtype], (), [kind])


def to_float(dtype: str | None) -> str | None:
    """Int and bool dtypes as float32 (what true division and exp give them); float and
    complex dtypes unchanged."""
    return dtype if dtype is None or dtype in FLOAT or dtype in COMPLEX else "float32"


def same_dim(a, b) -> bool | None:
    """True/False if known equal/different, None if it cannot be told."""
    if a is None or b is None:
        return None
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, str) and isinstance(b, str) and a == b:
        return True
    return None


def _pick(x, y):
    """The better-known of two compatible dims (an int beats a symbol beats None)."""
    if isinstance(x, int):
        return x
    if isinstance(y, int):
        return y
    return x if x is not None else y


def broadcast(a: tuple | None, b: tuple | None, what: str = "broadcast") -> tuple | None:
    """Broadcasting of two shapes; ShapeMismatch if two known dims clash."""
    if a is None or b is None:
        return None
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif same_dim(x, y) is False:
            raise ShapeMismatch(f"cannot {what} shapes {fmt(a)} and {fmt(b)}: "
                                f"dimension {x} does not match {y}")
        elif same_dim(x, y) or isinstance(x, int) or isinstance(y, int):
            out.append(_pick(x, y))  # a known size other than 1 wins (or the run fails)
        else:
            out.append(None)  # a symbol may be 1 at run time
    return tuple(reversed(out))


def broadcast_all(shapes, what: str = "broadcast") -> tuple | None:
    out = ()
    for s in shapes:
        out = broadcast(out, s, what)
    return out


def fmt(shape) -> str:
    if shape is None:
        return "[?]"
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def norm_dim(dim, rank, what="dim"):
    """A possibly negative dim made non-negative; ShapeMismatch if out of range."""
    if rank is None or dim is None:
        return None
    top = max(rank, 1)
    if not -top <= dim < top:
        raise ShapeMismatch(f"{what} {dim} is out of range for a tensor of rank {rank} "
                            f"(expected a value in [{-top}, {top - 1}])")
    return dim % top


def numel(shape):
    """The element count of a shape, None unless every dim is known."""
    if shape is None or any(not isinstance(d, int) for d in shape):
        return None
    n = 1
    for d in shape:
        n *= d
    return n


def mul_dims(dims):
    """The product of dims, None unless all known."""
    return numel(tuple(dims))
