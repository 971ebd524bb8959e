"""Compile-time tensor facts for shape functions: dtype and shape, with symbolic dims.

A dim is an int (known), a str (a symbol: equal symbols are equal sizes), or
None (unknown). Shape functions get one ArgInfo per operator argument and
return a TensorInfo (or a tuple of them); they raise ShapeMismatch only for a
mismatch they can prove.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ops.registry import ShapeMismatch


@dataclass(frozen=True)
class TensorInfo:
    dtype: str | None  # numpy dtype name ("float32"), None if unknown
    shape: tuple | None  # None if the rank is unknown


@dataclass(frozen=True)
class ArgInfo:
    dtype: str | None
    shape: tuple | None
    const: object  # the value of a constant non-tensor argument, else None
    is_tensor: bool
    kind: str | None = None  # non-tensor arguments: "int", "float", "bool", "str", "list", ...


UNKNOWN = TensorInfo(None, None)

FLOAT = {"float16", "float32", "float64"}
_RANK = {"bool": 0, "uint8": 1, "int8": 1, "int16": 2, "int32": 3, "int64": 4,
         "float16": 5, "float32": 6, "float64": 7}


def promote(a: str | None, b: str | None) -> str | None:
    """torch's result dtype for two tensor dtypes (None if unknown)."""
    if a is None or b is None:
        return None
    return a if _RANK[a] >= _RANK[b] else b


def scalar_result(dtype: str | None, scalar) -> str | None:
    """A tensor op with a Python scalar: a float scalar makes int/bool tensors float32."""
    if dtype is None:
        return None
    if isinstance(scalar, float) or scalar == "float":
        return dtype if dtype in FLOAT else "float32"
    if dtype == "bool" and (isinstance(scalar, int) and not isinstance(scalar, bool)):
        return "int64"
    return dtype


def same_dim(a, b) -> bool | None:
    """True/False if known equal/different, None if it cannot be told."""
    if a is None or b is None:
        return None
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    if isinstance(a, str) and isinstance(b, str) and a == b:
        return True
    return None


def broadcast(a: tuple | None, b: tuple | None, what: str = "broadcast") -> tuple | None:
    """numpy broadcasting of two shapes; ShapeMismatch if two known dims clash."""
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
        else:
            out.append(x if isinstance(x, int) or x == y else (y if isinstance(y, int) else x))
    return tuple(reversed(out))


def fmt(shape) -> str:
    if shape is None:
        return "[?]"
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def norm_dim(dim, rank, what="dim"):
    """A possibly negative dim made non-negative; ShapeMismatch if out of range."""
    if rank is None or dim is None:
        return None
    if not -rank <= dim < max(rank, 1):
        raise ShapeMismatch(f"{what} {dim} is out of range for a tensor of rank {rank}")
    return dim % max(rank, 1)


def numel(shape):
    if shape is None or any(not isinstance(d, int) for d in shape):
        return None
    n = 1
    for d in shape:
        n *= d
    return n
