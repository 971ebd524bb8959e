"""Operator schemas in TorchScript's spelling, parsed into a small type tree.

    "list.append(List[t] self, t x) -> None"
    "tensor.sum(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor"

Types: int float complex bool str None Tensor ScalarType Any, List[T] (also T[]),
Dict[K, V], Tuple[A, B] (Tuple[()] is empty), Optional[T] (also T?),
Union[A, B], Callable[[A], R], and type variables (single lowercase words
such as t, k, v). This module is independent of ember.ir.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NOTHING = object()


@dataclass(frozen=True)
class SType:
    """A schema type: a name ("int", "List", "Optional", "t", ...) and type arguments."""

    name: str
    args: tuple = ()

    @property
    def is_var(self) -> bool:
        return self.name[0].islower() and self.name not in BASE_NAMES

    def __str__(self) -> str:
        if self.name == "Tuple" and not self.args:
            return "Tuple[()]"
        if self.name == "Callable":
            *ps, r = self.args
            return f"Callable[[{', '.join(map(str, ps))}], {r}]"
        if not self.args:
            return self.name
        return f"{self.name}[{', '.join(map(str, self.args))}]"


BASE_NAMES = {"int", "float", "complex", "bool", "str", "None", "Tensor", "ScalarType", "Any", "exc"}


@dataclass(frozen=True)
class Param:
    name: str
    type: SType
    default: object = _NOTHING
    kwonly: bool = False

    @property
    def has_default(self) -> bool:
        return self.default is not _NOTHING

    def __str__(self) -> str:
        text = f"{self.type} {self.name}"
        if self.has_default:
            text += "=" + _default_text(self.default)
        return text


def _default_text(v) -> str:
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_default_text(x) for x in v) + "]"
    return repr(v)


@dataclass(frozen=True)
class Schema:
    name: str
    params: tuple[Param, ...]
    ret: SType

    def __str__(self) -> str:
        parts, star = [], False
        for p in self.params:
            if p.kwonly and not star:
                parts.append("*")
                star = True
            parts.append(str(p))
        return f"{self.name}({', '.join(parts)}) -> {self.ret}"


_TOKEN = re.compile(r"\s*(->|\.\.\.|[A-Za-z_][A-Za-z0-9_.]*|-?\d+\.\d*(?:e-?\d+)?|-?\d+|"
                    r"'[^']*'|\"[^\"]*\"|[()\[\],=*?])")


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m:
                if text[pos:].strip() == "":
                    break
                raise ValueError(f"bad schema {text!r} at {pos}")
            self.toks.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def next(self):
        t = self.peek()
        self.i += 1
        return t

    def expect(self, t):
        if self.next() != t:
            raise ValueError(f"bad schema {self.text!r}: expected {t!r}")

    def schema(self) -> Schema:
        name = self.next()
        self.expect("(")
        params, kwonly = [], False
        while self.peek() != ")":
            if self.peek() == "*":
                self.next()
                kwonly = True
            else:
                params.append(self.param(kwonly))
            if self.peek() == ",":
                self.next()
        self.expect(")")
        self.expect("->")
        ret = self.type()
        if self.peek():
            raise ValueError(f"bad schema {self.text!r}: trailing {self.peek()!r}")
        return Schema(name, tuple(params), ret)

    def param(self, kwonly: bool) -> Param:
        t = self.type()
        name = self.next()
        if self.peek() == "=":
            self.next()
            return Param(name, t, self.value(), kwonly)
        return Param(name, t, _NOTHING, kwonly)

    def type(self) -> SType:
        name = self.next()
        if name == "Tuple" and self.toks[self.i:self.i + 3] == ["[", "(", ")"]:
            self.i += 3
            self.expect("]")
            t = SType("Tuple")
        elif name == "Callable":
            self.expect("[")
            self.expect("[")
            ps = []
            while self.peek() != "]":
                ps.append(self.type())
                if self.peek() == ",":
                    self.next()
            self.expect("]")
            self.expect(",")
            r = self.type()
            self.expect("]")
            t = SType("Callable", tuple(ps) + (r,))
        elif self.peek() == "[" and self.toks[self.i + 1] != "]":
            self.next()
            args = [self.type()]
            while self.peek() == ",":
                self.next()
                args.append(self.type())
            self.expect("]")
            t = SType(name, tuple(args))
        else:
            t = SType(name)
        while self.peek() in ("[", "?"):
            if self.next() == "?":
                t = SType("Optional", (t,))
            else:
                self.expect("]")
                t = SType("List", (t,))
        return t

    def value(self):
        tok = self.next()
        if tok == "[":
            items = []
            while self.peek() != "]":
                items.append(self.value())
                if self.peek() == ",":
                    self.next()
            self.expect("]")
            return items
        if tok in ("None", "True", "False"):
            return {"None": None, "True": True, "False": False}[tok]
        if tok[0] in "'\"":
            return tok[1:-1]
        if re.fullmatch(r"-?\d+", tok):
            return int(tok)
        try:
            return float(tok)
        except ValueError:
            return tok  # a symbolic default such as a dtype name


def parse_schema(text: str) -> Schema:
    """Parse a schema string; ValueError if it is malformed."""
    return _Parser(text).schema()


def parse_stype(text: str) -> SType:
    p = _Parser(text)
    t = p.type()
    if p.peek():
        raise ValueError(f"bad type {text!r}")
    return t
