"""The IR printer. `parser.py` reads back exactly what this writes.

    export func @clamp(%x: i64, %hi: i64 = 10) -> i64 {
      %c = int.lt %hi, %x : bool                              loc("clamp.py":3:8)
      %r = if %c : i64 {
        yield %hi                                             loc("clamp.py":4:8)
      } else {
        yield %x                                              loc("clamp.py":6:8)
      }                                                       loc("clamp.py":3:4)
      return %r                                               loc("clamp.py":7:4)
    }                                                         loc("clamp.py":1:1)
"""

from __future__ import annotations

import json
import math
import re

from ember.ir import types as T
from ember.ir.core import Loc, Op, Region, SymbolRef, Value
from ember.ir.ops import ConstOp, FuncOp
from ember.mobile.manifest import REQUIRED

LOC_COLUMN = 60
"""Locations start at this column (or two spaces after a longer line)."""

_NAME_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


def print_type(t: T.Type) -> str:
    return str(t)


def print_float(x: float) -> str:
    """A float literal that always reads back as the same float (and never as an int)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def print_string(s: str) -> str:
    """A double-quoted literal with JSON escapes (lone surrogates escaped too)."""
    out = json.dumps(s, ensure_ascii=False)
    return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in out)


def print_attr_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if v is REQUIRED:
        return "required"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return print_float(v)
    if isinstance(v, complex):
        return f"complex({print_float(v.real)}, {print_float(v.imag)})"
    if isinstance(v, str):
        return print_string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(print_attr_value(x) for x in v) + "]"
    if isinstance(v, T.Type):
        return f"type({v})"
    if isinstance(v, SymbolRef):
        return str(v)
    raise TypeError(f"cannot print attribute value {v!r}")


def print_object_value(v) -> str:
    """An object field value: a scalar, @symbol, [list or tuple], or {key: value} dict."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{print_object_value(k)}: {print_object_value(x)}"
                               for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(print_object_value(x) for x in v) + "]"
    return print_attr_value(v)


class Printer:
    """Prints one module; value names are unique per function."""

    def __init__(self, locs: bool = True, tensor_data: bool = True):
        self.locs = locs
        self.tensor_data = tensor_data
        self.lines: list[str] = []
        self._names: dict[Value, str] = {}
        self._used: set[str] = set()
        self._counter = 0

    # -- names ------------------------------------------------------------------------------
    def _reset_names(self) -> None:
        self._names, self._used, self._counter = {}, set(), 0

    def name_of(self, v: Value) -> str:
        """The printed name of v (assigned on first sight)."""
        n = self._names.get(v)
        if n is None:
            n = self._fresh(v.name)
            self._names[v] = n
        return "%" + n

    def _fresh(self, hint: str | None) -> str:
        if hint is None:
            n = str(self._counter)
            self._counter += 1
            return n
        base = hint if _NAME_OK.match(hint) else "v_" + re.sub(r"[^A-Za-z0-9_.]", "_", hint)
        n, k = base, 0
        while n in self._used:
            k += 1
            n = f"{base}.{k}"
        self._used.add(n)
        return n

    # -- output -------------------------------------------------------------------------------
    def _emit(self, indent: int, text: str, loc: Loc | None = None) -> None:
        line = "  " * indent + text
        if self.locs and loc is not None and not loc.is_unknown:
            pad = max(LOC_COLUMN - len(line), 2)
            line = line + " " * pad + str(loc)
        self.lines.append(line)

    def print_module(self, m) -> str:
        items: list[list[str]] = []
        for c in m.classes.values():
            items.append([self._class_line(c)])
        for t in m.tensors.values():
            items.append([self._tensor_line(t)])
        for o in m.objects.values():
            items.append([self._object_line(o, m)])
        for f in m.funcs.values():
            self.lines = []
            self.print_func(f, exported=f.sym_name in m.entries)
            items.append(self.lines)
        return "\n\n".join("\n".join(i) for i in items) + ("\n" if items else "")

    def _class_line(self, c) -> str:
        fields = ", ".join(f"{n}: {t}" for n, t in c.fields)
        base = f"({c.base})" if c.base else ""
        line = f"{c.kind} @{c.name}{base} {{{fields}}}"
        if c.methods:
            line += " methods {" + ", ".join(f"{n} = @{s}" for n, s in c.methods.items()) + "}"
        return line

    def _tensor_line(self, t) -> str:
        if not self.tensor_data:
            return f"tensor @{t.name} : {t.type} = dense<elided>"
        data = t.data.astype(t.data.dtype.newbyteorder("<"), copy=False).tobytes().hex()
        return f'tensor @{t.name} : {t.type} = dense<"{data}">'

    def _object_line(self, o, m) -> str:
        decl = m.classes.get(o.cls)
        names = [n for n, _ in decl.fields] if decl is not None else \
            [f"f{i}" for i in range(len(o.values))]
        body = ", ".join(f"{n} = {print_object_value(v)}" for n, v in zip(names, o.values))
        return f"object @{o.name} : !{o.cls} = {{{body}}}"

    def print_func(self, f: FuncOp, exported: bool = False) -> None:
        self._reset_names()
        params = []
        defaults = f.defaults
        first_default = len(f.args) - len(defaults)
        for i, a in enumerate(f.args):
            p = f"{self.name_of(a)}: {a.type}"
            if i >= first_default:
                p += " = " + print_attr_value(defaults[i - first_default])
            params.append(p)
        head = "export func" if exported else "func"
        extra = {k: v for k, v in f.attrs.items() if k not in ("sym_name", "type", "defaults")}
        attrs = self._attrs(extra)
        self._emit(0, f"{head} @{f.sym_name}({', '.join(params)}) -> {f.type.ret}{attrs} {{")
        self.print_block_ops(f.body, 1)
        self._emit(0, "}", f.loc)

    def print_block_ops(self, block, indent: int) -> None:
        for op in block.ops:
            self.print_op(op, indent)

    def print_op(self, op: Op, indent: int) -> None:
        head = self._op_head(op)
        if not op.regions:
            self._emit(indent, head, op.loc)
            return
        labels = list(getattr(op, "region_labels", lambda: [])())
        labels += ["region"] * (len(op.regions) - len(labels))
        for i, region in enumerate(op.regions):
            if i == 0:
                self._emit(indent, head + " {")
            else:
                self._emit(indent, f"}} {labels[i]} {{")
            self._print_region(region, indent)
        self._emit(indent, "}", op.loc)

    def _print_region(self, region: Region, indent: int) -> None:
        blk = region.block
        if blk.args:
            args = ", ".join(f"{self.name_of(a)}: {a.type}" for a in blk.args)
            self._emit(indent, f"^({args}):")
        self.print_block_ops(blk, indent + 1)

    def _op_head(self, op: Op) -> str:
        parts = []
        if op.results:
            parts.append(", ".join(self.name_of(r) for r in op.results) + " =")
        parts.append(op.name)
        if isinstance(op, ConstOp):
            parts.append(print_attr_value(op.value))
            attrs = {k: v for k, v in op.attrs.items() if k != "value"}
        else:
            attrs = op.attrs
        if op.operands:
            parts.append(", ".join(self.name_of(v) for v in op.operands))
        text = " ".join(parts) + self._attrs(attrs)
        if op.results:
            text += " : " + ", ".join(str(r.type) for r in op.results)
        return text

    def _attrs(self, attrs: dict) -> str:
        if not attrs:
            return ""
        body = ", ".join(f"{k} = {print_attr_value(attrs[k])}" for k in sorted(attrs))
        return " {" + body + "}"


def print_module(m, locs: bool = True, tensor_data: bool = True) -> str:
    """The textual form of IR module `m` (`tensor_data=False` elides tensor bytes as
    `dense<elided>`, which the parser refuses: for reading, not for round trips)."""
    return Printer(locs, tensor_data).print_module(m)


def print_func(f: FuncOp, locs: bool = True) -> str:
    p = Printer(locs)
    p.print_func(f)
    return "\n".join(p.lines) + "\n"
