"""Tensors as text, the way torch writes them (torch/_tensor_str.py with its default print
options: precision 4, threshold 1000, edgeitems 3, linewidth 80): `tensor([1.5000, 2.0000])`,
`tensor(3)`, `tensor([1., 2.], dtype=torch.float64)`, summarized with `...` past 1000
elements. str / repr / format / print of a tensor, and of a list, tuple or dict holding
tensors, use it (a script sees what torch would print).

ember's tensors are numpy arrays: the dtype suffix names torch's dtype for numpy's
(float32, complex64, int64 and bool are torch's defaults, written without a suffix).
"""

from __future__ import annotations

import math

import numpy as np

PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = 4, 1000, 3, 80

_DEFAULT_DTYPES = ("float32", "complex64", "int64", "bool")
_TORCH_NAMES = {"uint8": "uint8", "int8": "int8", "int16": "int16", "int32": "int32",
                "int64": "int64", "float16": "float16", "float32": "float32",
                "float64": "float64", "complex64": "complex64", "complex128": "complex128",
                "bool": "bool"}


class _Formatter:
    """torch's _Formatter: one width and mode (integer-valued, fixed or scientific) for
    every element of a tensor (of its real or imaginary parts)."""

    def __init__(self, values: np.ndarray):
        self.floating = values.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            return
        absolute = np.abs(finite).astype(np.float64)
        lo, hi = float(absolute.min()), float(absolute.max())
        vals = finite.tolist()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                self.max_width = max(len(f"{v:.{PRECISION}e}") for v in vals)
            else:
                self.max_width = max(self.max_width, max(len(f"{v:.0f}") + 1 for v in vals))
        elif hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
            self.sci_mode = True
            self.max_width = max(len(f"{v:.{PRECISION}e}") for v in vals)
        else:
            self.max_width = max(len(f"{v:.{PRECISION}f}") for v in vals)

    def format(self, value) -> str:
        if self.floating:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRECISION}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRECISION}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _complex_str(real: str, imag: str) -> str:
    imag = (imag + "j").lstrip()
    return real + imag if imag[0] in "+-" else real + "+" + imag


def _element(v, f1, f2) -> str:
    if f2 is None:
        return f1.format(v)
    return _complex_str(f1.format(v.real), f2.format(v.imag))


def _vector(x, indent, summarize, f1, f2) -> str:
    width = f1.max_width + 2 + (f2.max_width + 1 if f2 is not None else 0)
    per_line = max(1, int(math.floor((LINEWIDTH - indent) / width)))
    if summarize and x.shape[0] > 2 * EDGEITEMS:
        data = [_element(v, f1, f2) for v in x[:EDGEITEMS].tolist()] + [" ..."] + \
            [_element(v, f1, f2) for v in x[-EDGEITEMS:].tolist()]
    else:
        data = [_element(v, f1, f2) for v in x.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(x, indent, summarize, f1, f2) -> str:
    if x.ndim == 0:
        return _element(x.item(), f1, f2)
    if x.ndim == 1:
        return _vector(x, indent, summarize, f1, f2)
    n = x.shape[0]
    if summarize and n > 2 * EDGEITEMS:
        rows = [_nested(x[i], indent + 1, summarize, f1, f2) for i in range(EDGEITEMS)] + \
            ["..."] + [_nested(x[i], indent + 1, summarize, f1, f2)
                       for i in range(n - EDGEITEMS, n)]
    else:
        rows = [_nested(x[i], indent + 1, summarize, f1, f2) for i in range(n)]
    return "[" + ("," + "\n" * (x.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _summarized(x):
    """The elements printing shows (edges of each dim), for the formatter's widths."""
    if x.ndim == 0:
        return x
    if x.ndim == 1:
        return np.concatenate((x[:EDGEITEMS], x[-EDGEITEMS:])) if x.shape[0] > 2 * EDGEITEMS \
            else x
    rows = list(range(EDGEITEMS)) + list(range(x.shape[0] - EDGEITEMS, x.shape[0])) \
        if x.shape[0] > 2 * EDGEITEMS else range(x.shape[0])
    return np.stack([_summarized(x[i]) for i in rows])


def _body(x, indent: int) -> str:
    if x.size == 0:
        return "[]"
    summarize = x.size > THRESHOLD
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    shown = _summarized(x) if summarize else x
    if x.dtype.kind == "c":
        return _nested(x, indent, summarize, _Formatter(shown.real), _Formatter(shown.imag))
    return _nested(x, indent, summarize, _Formatter(shown), None)


def _suffixed(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for s in suffixes:
        if last + len(s) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + s)
            last = indent + len(s)
        else:
            parts.append(", " + s)
            last += len(s) + 2
    return "".join(parts) + ")"


def tensor_str(x: np.ndarray) -> str:
    """str(tensor) / repr(tensor) as torch writes it."""
    prefix = "tensor("
    indent = len(prefix)
    name = _TORCH_NAMES.get(x.dtype.name, x.dtype.name)
    suffixes = []
    if x.size == 0:
        if x.ndim != 1:
            suffixes.append("size=" + str(tuple(x.shape)))
        if name != "float32":
            suffixes.append(f"dtype=torch.{name}")
    elif name not in _DEFAULT_DTYPES:
        suffixes.append(f"dtype=torch.{name}")
    return _suffixed(prefix + _body(x, indent), suffixes, indent)


# ----------------------------------------------------------------------------- values


def _holds_tensor(v) -> bool:
    t = type(v)
    if t is np.ndarray:
        return True
    if t is list or t is tuple:
        return any(_holds_tensor(x) for x in v)
    if t is dict:
        return any(_holds_tensor(x) for x in v.values()) or any(_holds_tensor(k) for k in v)
    return False


def _repr(v) -> str:
    t = type(v)
    if t is np.ndarray:
        return tensor_str(v)
    if t is list:
        return "[" + ", ".join(_repr(x) for x in v) + "]"
    if t is tuple:
        return "(" + ", ".join(_repr(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if t is dict:
        return "{" + ", ".join(f"{_repr(k)}: {_repr(x)}" for k, x in v.items()) + "}"
    return repr(v)


def py_str(v) -> str:
    """str(v), tensors (also inside lists, tuples and dicts) written as torch writes them."""
    return _repr(v) if _holds_tensor(v) else str(v)


def py_repr(v) -> str:
    return _repr(v) if _holds_tensor(v) else repr(v)


def py_format(v, spec: str) -> str:
    """format(v, spec): a tensor formats as torch's Tensor.__format__ does (a 0-d tensor as
    its item, any other with an empty spec as its str)."""
    if type(v) is np.ndarray:
        if v.ndim == 0:
            return format(v.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return tensor_str(v)
    if spec == "" and _holds_tensor(v):
        return _repr(v)
    return format(v, spec)


def percent_format(fmt: str, args) -> str:
    """fmt % args, a tensor argument written by %s / %r as torch writes it."""
    if _holds_tensor(args):
        items = args if type(args) is tuple else (args,)
        args = tuple(_Shown(x) if _holds_tensor(x) else x for x in items)
    return fmt % args


def format_values(fmt: str, args: tuple, names: tuple, values: tuple) -> str:
    """fmt.format(*args, **dict(zip(names, values))): CPython's str.format, a tensor
    formatted as torch's Tensor.__format__ does."""
    wrap = (lambda v: _Shown(v) if _holds_tensor(v) else v)
    return fmt.format(*map(wrap, args), **{k: wrap(v) for k, v in zip(names, values)})


class _Shown:
    """A tensor (or container of tensors) in `%` formatting: %s and %r give torch's text;
    the numeric conversions see the value (a 0-d tensor's item)."""

    def __init__(self, v):
        self.v = v

    def __str__(self):
        return _repr(self.v)

    __repr__ = __str__

    def __format__(self, spec):
        return py_format(self.v, spec)

    def __int__(self):
        return int(self.v)

    def __float__(self):
        return float(self.v)

    def __index__(self):
        return int(self.v)


__all__ = ["tensor_str", "py_str", "py_repr", "py_format", "percent_format",
           "format_values"]
