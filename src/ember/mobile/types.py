"""IR type strings at run time: parse them, check Python values against them, show them.

The runtime cannot import ember.ir, so this is a small twin of its type
syntax: i64 f64 c128 bool str none exc dtype tensor<f32, [3, ?, N]> list<T>
dict<K, V> set<T> iter<T> tuple<A, B> optional<T> union<A, B> fn<(A) -> R> var<T> !Name.
"""

from __future__ import annotations

import re

import numpy as np

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
NUMPY_DTYPE = {"bool": "bool", "u8": "uint8", "i8": "int8", "i16": "int16", "i32": "int32",
               "i64": "int64", "f16": "float16", "f32": "float32", "f64": "float64",
               "c64": "complex64", "c128": "complex128"}
TENSOR_DTYPES = frozenset(np.dtype(n) for n in NUMPY_DTYPE.values())
"""The dtypes a tensor may have (native byte order): what a tensor of unknown dtype admits."""
_TOKEN = re.compile(r"\s*(->|[A-Za-z_!][A-Za-z0-9_.!]*|\d+|[<>\[\](),?])")
MAX_TYPE_DEPTH = 32
MAX_TYPE_TEXT = 4096


class TypeSyntaxError(ValueError):
    """A type string that is not in the IR type syntax."""


class RType:
    """A parsed run-time type: `name` plus `args` (types, dims or a dtype)."""

    __slots__ = ("name", "args")

    def __init__(self, name, args=()):
        self.name, self.args = name, tuple(args)

    def __repr__(self):
        return f"RType({self.name!r}, {self.args!r})"


def parse(text: str) -> RType:
    """Parse an IR type string; TypeSyntaxError if it is malformed or nested too deeply."""
    if len(text) > MAX_TYPE_TEXT:
        raise TypeSyntaxError(f"type text of {len(text)} characters is too long")
    toks = _TOKEN.findall(text)
    if "".join(toks) != re.sub(r"\s+", "", text):
        raise TypeSyntaxError(f"bad type {text!r}")
    t, i = _parse(toks, 0, 0)
    if i != len(toks):
        raise TypeSyntaxError(f"bad type {text!r}")
    return t


def _expect(toks, i, tok):
    if i >= len(toks) or toks[i] != tok:
        raise TypeSyntaxError(f"expected {tok!r} in type")
    return i + 1


def _parse(toks, i, depth):
    if depth > MAX_TYPE_DEPTH or i >= len(toks):
        raise TypeSyntaxError("type too deep or truncated")
    name = toks[i]
    i += 1
    if name.startswith("!") and len(name) > 1:
        return RType("class", (name[1:],)), i
    if name in ("i64", "f64", "c128", "bool", "str", "none", "exc", "dtype"):
        return RType(name), i
    if name == "tensor":
        return _parse_tensor(toks, i)
    if name in ("list", "vtuple", "set", "iter", "optional", "var"):
        i = _expect(toks, i, "<")
        t, i = _parse(toks, i, depth + 1)
        return RType(name, (t,)), _expect(toks, i, ">")
    if name in ("dict", "tuple", "union"):
        args, i = _parse_list(toks, _expect(toks, i, "<"), ">", depth)
        if (name == "dict" and len(args) != 2) or (name == "union" and not args):
            raise TypeSyntaxError(f"{name}<...> with {len(args)} member types")
        return RType(name, args), i
    if name == "fn":
        _, i = _parse_list(toks, _expect(toks, _expect(toks, i, "<"), "("), ")", depth)
        _, i = _parse(toks, _expect(toks, i, "->"), depth + 1)
        return RType("fn"), _expect(toks, i, ">")
    raise TypeSyntaxError(f"unknown type {name!r}")


def _parse_list(toks, i, close, depth):
    """Comma-separated types up to `close`; returns (types, index after close)."""
    args = []
    while i < len(toks) and toks[i] != close:
        if args:
            i = _expect(toks, i, ",")
        t, i = _parse(toks, i, depth + 1)
        args.append(t)
    return args, _expect(toks, i, close)


def _parse_tensor(toks, i):
    if i >= len(toks) or toks[i] != "<":
        return RType("tensor", (None, None)), i
    i += 1
    dtype = toks[i] if i < len(toks) else "?"
    if dtype != "?" and dtype not in NUMPY_DTYPE:
        raise TypeSyntaxError(f"unknown dtype {dtype!r}")
    i += 1
    shape = None
    if i < len(toks) and toks[i] == ",":
        i = _expect(toks, i + 1, "[")
        shape = []
        while i < len(toks) and toks[i] != "]":
            if shape:
                i = _expect(toks, i, ",")
            shape.append(_dim(toks[i] if i < len(toks) else "]"))
            i += 1
        i = _expect(toks, i, "]")
    i = _expect(toks, i, ">")
    return RType("tensor", (None if dtype == "?" else NUMPY_DTYPE[dtype], shape)), i


def _dim(d: str):
    """A dimension token: a size (int), "?" (None) or a symbol (str)."""
    if d.isdigit() and len(d) <= 18:
        return int(d)
    if d == "?":
        return None
    if d.isidentifier():
        return d
    raise TypeSyntaxError(f"bad tensor dimension {d!r}")


def class_names(t: RType):
    """The class names a type mentions (!Name), at any depth."""
    if t.name == "class":
        yield t.args[0]
    elif t.name != "tensor":
        for a in t.args:
            yield from class_names(a)


# ----------------------------------------------------------------------------- checking


def checker(t: RType, classes: dict):
    """A function value -> bool for type t; `classes` maps class names to Python classes."""
    simple = _SIMPLE.get(t.name)
    if simple is not None:
        return simple
    return _COMPOUND[t.name](t, classes)


def _is_i64(v):
    return type(v) is int and INT64_MIN <= v <= INT64_MAX


_SIMPLE = {
    "i64": _is_i64,
    "f64": lambda v: type(v) is float,
    "c128": lambda v: type(v) is complex,
    "bool": lambda v: type(v) is bool,
    "str": lambda v: type(v) is str,
    "none": lambda v: v is None,
    "exc": lambda v: isinstance(v, BaseException),
    "dtype": lambda v: type(v) is str and v in NUMPY_DTYPE.values(),
    "fn": callable,
}


def _tensor(t, classes):
    dtype, shape = t.args
    dt = np.dtype(dtype) if dtype else None

    def check(v):
        if type(v) is not np.ndarray or (v.dtype != dt if dt is not None
                                         else v.dtype not in TENSOR_DTYPES):
            return False
        if shape is None:
            return True
        return v.ndim == len(shape) and all(type(d) is not int or d == s
                                            for d, s in zip(shape, v.shape))
    return check


def symbolic_dims(t: RType) -> list[tuple[int, str]]:
    """(axis, symbol) for each symbolic dimension of a tensor or optional<tensor> type:
    arguments sharing a symbol must agree on its size (checked at the call boundary)."""
    if t.name == "optional":
        t = t.args[0]
    if t.name != "tensor" or t.args[1] is None:
        return []
    return [(axis, d) for axis, d in enumerate(t.args[1]) if type(d) is str]


_EXACT = {"i64": int, "f64": float, "bool": bool, "str": str}


def _list(t, classes):
    exact = _EXACT.get(t.args[0].name)
    if exact is not None:  # the element types and int64's range checked in C loops
        bounded = exact is int

        def check_simple(v):
            if type(v) is not list:
                return False
            if not v:
                return True
            if len(v) < 16:
                return all(type(x) is exact for x in v) and (
                    not bounded or INT64_MIN <= min(v) and max(v) <= INT64_MAX)
            return set(map(type, v)) == {exact} and (
                not bounded or INT64_MIN <= min(v) and max(v) <= INT64_MAX)
        return check_simple
    elem = checker(t.args[0], classes)
    return lambda v: type(v) is list and all(elem(x) for x in v)


def _set(t, classes):
    elem = checker(t.args[0], classes)
    return lambda v: type(v) is set and all(elem(x) for x in v)


def _iter(t, classes):
    return lambda v: type(v).__name__ == "ScriptIterator"


def _dict(t, classes):
    k, val = checker(t.args[0], classes), checker(t.args[1], classes)
    return lambda v: type(v) is dict and all(k(a) and val(b) for a, b in v.items())


def _tuple(t, classes):
    elems = [checker(a, classes) for a in t.args]
    n = len(elems)
    return lambda v: isinstance(v, tuple) and len(v) == n and all(c(x) for c, x in zip(elems, v))


def _optional(t, classes):
    inner = checker(t.args[0], classes)
    return lambda v: v is None or inner(v)


def _union(t, classes):
    alts = [checker(a, classes) for a in t.args]
    return lambda v: any(c(v) for c in alts)


def _class(t, classes):
    cls = classes.get(t.args[0])
    if cls is None:
        return lambda v: False
    return lambda v: isinstance(v, cls)


def converter(t: RType, classes: dict):
    """For values that cross the call boundary in another form, as TorchScript converts
    its arguments: a function making the runtime's representation, or None when values
    pass as they are. An int given for a bool becomes its truth, an int or a bool given for
    a float a float, an int, a float
    or a bool given for a complex a complex; a tuple or a range
    given for a List is a new list, a list given for a Tuple a tuple, and containers whose
    elements convert are copied with them (a list that needs nothing stays the caller's
    object); a plain tuple given for a NamedTuple becomes the script's class."""
    name = t.name
    if name in _SCALAR_CONVERTERS:
        return _SCALAR_CONVERTERS[name]
    if name == "optional":
        inner = converter(t.args[0], classes)
        return None if inner is None else (lambda v: v if v is None else inner(v))
    if name == "list":
        return _list_converter(converter(t.args[0], classes))  # a tuple/range: a new list
    if name == "tuple":
        return _tuple_converter([converter(a, classes) for a in t.args])
    if name == "dict":
        k, v = converter(t.args[0], classes), converter(t.args[1], classes)
        return None if k is None and v is None else _dict_converter(k, v)
    if name == "class":
        cls = classes.get(t.args[0])
        if cls is not None and getattr(cls, "_ember_constants", None):
            return _enum_converter(cls)
        if cls is not None and getattr(cls, "_field_types", None) is not None:
            return _object_converter(cls, classes)
        if cls is not None and issubclass(cls, tuple):
            n = len(cls._fields)

            def convert(v):
                if isinstance(v, tuple) and not isinstance(v, cls) and len(v) == n:
                    return cls(*v)
                return v
            return convert
    return None


def _object_converter(cls, classes):
    """A Python object given for a script class of the same name (an object of the class
    the same source defines when CPython runs it, as checkScript passes them) is a new
    script object made from its attributes of the class's field names, each converted and
    checked as an argument of the field's type; anything else passes on (and fails the
    argument's check)."""
    fields: list = []

    def convert(v):
        if isinstance(v, cls) or type(v).__name__ != cls.__name__ or \
                isinstance(v, (type, BaseException)):
            return v
        if not fields:
            for text in cls._field_types:
                t = parse(text)
                fields.append((converter(t, classes), checker(t, classes)))
        values = []
        for name, (conv, check) in zip(cls._field_names, fields):
            try:
                x = getattr(v, name)
            except AttributeError:
                return v
            x = conv(x) if conv is not None else x
            if not check(x):
                return v
            values.append(x)
        return cls(*values)
    return convert


def _enum_converter(cls):
    """A Python Enum member given for a script Enum class of the same name is the script's
    member of the same name and value."""
    import enum

    def convert(v):
        if isinstance(v, enum.Enum) and type(v).__name__ == cls.__name__:
            for m in cls._ember_constants:
                if m.f0 == v.name and type(m.f1) is type(v.value) and m.f1 == v.value:
                    return m
        return v
    return convert


def _to_float(v):
    if type(v) is bool:
        return float(v)
    return float(v) if type(v) is int and -2 ** 63 <= v < 2 ** 63 else v


def _real_to_complex(v):
    if type(v) is float or type(v) is bool or (type(v) is int and -2 ** 63 <= v < 2 ** 63):
        return complex(v)
    return v


def _int_to_bool(v):
    """An int given for a bool is its truth, as TorchScript's argument conversion
    (pybind's bool caster) makes it."""
    return bool(v) if type(v) is int else v


def _device_to_str(v):
    """A torch.device given for a device (ember's devices are their strings): its string."""
    if type(v).__name__ == "device" and type(v).__module__.split(".")[0] == "torch":
        return str(v)
    return v


_SCALAR_CONVERTERS = {"f64": _to_float, "c128": _real_to_complex, "bool": _int_to_bool,
                      "str": _device_to_str}
"""(An int parameter takes no converter, so that the native backend's fast entry stays
open to int-only signatures: a bool for an int is refused.)"""


def _list_converter(elem):
    def convert(v):
        if type(v) in (tuple, range):
            v = list(v)
        elif type(v) is not list:
            return v
        if elem is None:
            return v
        for i, x in enumerate(v):
            if elem(x) is not x:  # copy only a list with an element to convert
                return v[:i] + [elem(y) for y in v[i:]]
        return v
    return convert


def _dict_converter(key, value):
    key = key or (lambda k: k)
    value = value or (lambda v: v)

    def convert(d):
        if type(d) is not dict:
            return d
        out = {key(k): value(v) for k, v in d.items()}
        same = all(a is b and x is y for (a, x), (b, y) in zip(out.items(), d.items()))
        return d if same and len(out) == len(d) else out
    return convert


def _tuple_converter(elems):
    n = len(elems)

    def convert(v):
        if type(v) is list and len(v) == n:
            v = tuple(v)
        if type(v) is not tuple or len(v) != n:
            return v
        out = tuple(x if c is None else c(x) for c, x in zip(elems, v))
        return out if any(a is not b for a, b in zip(out, v)) else v
    return convert


def _vtuple(t, classes):
    elem = checker(t.args[0], classes)
    return lambda v: type(v) is tuple and all(elem(x) for x in v)


_COMPOUND = {"tensor": _tensor, "list": _list, "vtuple": _vtuple, "set": _set, "iter": _iter, "dict": _dict, "tuple": _tuple,
             "optional": _optional, "union": _union, "class": _class,
             "var": lambda t, c: (lambda v: False)}


# ----------------------------------------------------------------------------- display

_PY = {"i64": "int", "f64": "float", "c128": "complex", "bool": "bool", "str": "str", "none": "None",
       "exc": "Exception", "dtype": "dtype", "fn": "Callable"}


def show(t: RType) -> str:
    """The Python spelling of a type, for messages: List[int], Optional[Tensor[float32]]."""
    if t.name in _PY:
        return _PY[t.name]
    if t.name == "tensor":
        dtype, shape = t.args
        parts = [dtype or "?"] if dtype or shape is not None else []
        if shape is not None:
            parts.append("(" + ", ".join("?" if d is None else str(d) for d in shape) + ")")
        return "Tensor" + (f"[{', '.join(parts)}]" if parts else "")
    if t.name == "class":
        return t.args[0]
    inner = ", ".join(show(a) for a in t.args)
    if t.name == "vtuple":
        return f"Tuple[{inner}, ...]"
    name = {"list": "List", "set": "Set", "iter": "Iterator", "dict": "Dict", "tuple": "Tuple", "optional": "Optional",
            "union": "Union", "var": "Var"}[t.name]
    return f"{name}[{inner}]"


def describe(v, depth: int = 0) -> str:
    """The type of a Python value, in the same spelling as show() (containers are described
    by their first element)."""
    if isinstance(v, np.ndarray):
        return f"Tensor[{v.dtype}, {tuple(v.shape)}]"
    if type(v) is int and not INT64_MIN <= v <= INT64_MAX:
        return "int (outside int64)"
    if v is None:
        return "None"
    if depth > 3:
        return _type_name(v)
    if type(v) is list and v:
        return f"List[{describe(v[0], depth + 1)}]"
    if type(v) is dict and v:
        k, x = next(iter(v.items()))
        return f"Dict[{describe(k, depth + 1)}, {describe(x, depth + 1)}]"
    if type(v) is tuple and 0 < len(v) <= 8:
        return "Tuple[" + ", ".join(describe(x, depth + 1) for x in v) + "]"
    if type(v) is set and v:
        return f"Set[{describe(next(iter(v)), depth + 1)}]"
    return {"list": "List", "set": "Set", "dict": "Dict", "tuple": "Tuple"}.get(type(v).__name__,
                                                                  _type_name(v))


def _type_name(v) -> str:
    """A value's class name, qualified by its module unless it is a builtin or script class
    (so a torch.Tensor or a Python class P does not read like ember's Tensor or P)."""
    cls = type(v)
    module = getattr(cls, "__module__", "builtins")
    if module in ("builtins", __name__.rsplit(".", 1)[0] + ".runtime"):
        return cls.__name__
    return f"{module}.{cls.__qualname__}"
