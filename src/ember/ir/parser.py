"""The IR parser: reads exactly what printer.py writes (and hand-written IR for tests).

A regex tokenizer and a recursive-descent parser. Errors are IRParseErrors
with a caret into the IR text. Values must be defined before use, in the
enclosing scope (structured IR needs no forward references).
"""

from __future__ import annotations

import json
import re

import numpy as np

from ember.errors import IRParseError, Source, Span
from ember.ir import types as T
from ember.ir.core import Block, Loc, Region, SymbolRef
from ember.ir.module import ClassDecl, Module
from ember.ir.ops import FuncOp, create_op, op_class
from ember.mobile.manifest import REQUIRED

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+|//[^\n]*)
  | (?P<value>%[A-Za-z0-9_.$]+)
  | (?P<symbol>@[A-Za-z_][A-Za-z0-9_.$]*)
  | (?P<classname>![A-Za-z_][A-Za-z0-9_.$]*)
  | (?P<arrow>->)
  | (?P<number>-?(?:inf\b|nan\b|\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+))
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<punct>[(){}\[\]<>,:=^?])
""", re.VERBOSE)


class Token:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self):
        return f"{self.kind}:{self.text!r}"


def tokenize(text: str, source: Source):
    toks, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise _error(source, text, pos, f"unexpected character {text[pos]!r}")
        if m.lastgroup != "ws":
            toks.append(Token(m.lastgroup, m.group(), pos))
        pos = m.end()
    toks.append(Token("eof", "", len(text)))
    return toks


def _error(source: Source, text: str, pos: int, message: str) -> IRParseError:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return IRParseError(message, Span(source, line, col, line, col + 1))


_SCALAR_TYPES = dict(T.SCALARS)
_CLASS_KINDS = ("class", "namedtuple", "module", "exception")


class Parser:
    """Parses one IR text into a Module."""

    def __init__(self, text: str, filename: str = "<ir>"):
        self.text = text
        self.source = Source(filename, text)
        self.toks = tokenize(text, self.source)
        self.i = 0
        self.scopes: list[dict] = []

    # -- token helpers ---------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def error(self, message: str, tok: Token | None = None) -> IRParseError:
        tok = tok or self.tok
        return _error(self.source, self.text, tok.pos, message)

    def next(self) -> Token:
        t = self.tok
        self.i += 1
        return t

    def at(self, text: str) -> bool:
        return self.tok.text == text and self.tok.kind in ("punct", "ident", "arrow")

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> Token:
        if not self.at(text):
            found = self.tok.text or "end of input"
            raise self.error(f"expected '{text}', found '{found}'")
        return self.next()

    def expect_kind(self, kind: str, what: str) -> Token:
        if self.tok.kind != kind:
            raise self.error(f"expected {what}, found '{self.tok.text or 'end of input'}'")
        return self.next()

    # -- module ------------------------------------------------------------------------------
    def parse_module(self) -> Module:
        m = Module()
        while self.tok.kind != "eof":
            if self.tok.text in _CLASS_KINDS and self.tok.kind == "ident":
                m.add_class(self.parse_class())
            elif self.at("tensor") and self.peek().kind == "symbol":
                self.parse_tensor(m)
            elif self.at("object") and self.peek().kind == "symbol":
                self.parse_object(m)
            elif self.at("export") or self.at("func"):
                exported = self.accept("export")
                f = self.parse_func()
                if f.sym_name in m.funcs:
                    raise self.error(f"function @{f.sym_name} defined twice")
                m.add_func(f)
                if exported:
                    m.entries.append(f.sym_name)
            else:
                raise self.error(f"expected 'func', 'class', 'tensor' or 'object', found "
                                 f"'{self.tok.text}'")
        return m

    def parse_class(self) -> ClassDecl:
        kind = self.next().text
        name = self.expect_kind("symbol", "a class name").text[1:]
        base = None
        if self.accept("("):
            base = self.expect_kind("ident", "a base class name").text
            self.expect(")")
        self.expect("{")
        fields = []
        while not self.at("}"):
            fname = self.expect_kind("ident", "a field name").text
            self.expect(":")
            fields.append((fname, self.parse_type()))
            if not self.accept(","):
                break
        self.expect("}")
        methods = {}
        if self.at("methods") and self.peek().text == "{":
            self.next()
            self.expect("{")
            while not self.at("}"):
                mname = self.expect_kind("ident", "a method name").text
                self.expect("=")
                methods[mname] = self.expect_kind("symbol", "a function name").text[1:]
                if not self.accept(","):
                    break
            self.expect("}")
        return ClassDecl(name, fields, kind, base=base, methods=methods)

    def parse_tensor(self, m: Module) -> None:
        self.expect("tensor")
        name = self.next().text[1:]
        self.expect(":")
        ty_tok = self.tok
        ty = self.parse_type()
        self.expect("=")
        self.expect("dense")
        self.expect("<")
        data_tok = self.expect_kind("string", "a hex string")
        self.expect(">")
        if not isinstance(ty, T.TensorType) or ty.dtype is None or ty.shape is None or \
                not all(isinstance(d, int) for d in ty.shape):
            raise self.error("a tensor constant needs a fully known type", ty_tok)
        try:
            raw = bytes.fromhex(json.loads(data_tok.text))
            arr = np.frombuffer(raw, dtype=np.dtype(T.NUMPY_DTYPE[ty.dtype]).newbyteorder("<"))
            arr = arr.astype(arr.dtype.newbyteorder("="), copy=False).reshape(ty.shape)
        except ValueError as e:
            raise self.error(f"bad tensor data: {e}", data_tok) from None
        m.add_tensor(name, arr.copy())

    def parse_object(self, m: Module) -> None:
        self.expect("object")
        name_tok = self.next()
        name = name_tok.text[1:]
        self.expect(":")
        cls_tok = self.expect_kind("classname", "a class type (!Name)")
        decl = m.classes.get(cls_tok.text[1:])
        if decl is None:
            raise self.error(f"object of undeclared class {cls_tok.text}", cls_tok)
        self.expect("=")
        self.expect("{")
        values = []
        while not self.at("}"):
            ftok = self.expect_kind("ident", "a field name")
            i = len(values)
            if i >= len(decl.fields) or decl.fields[i][0] != ftok.text:
                raise self.error(f"field '{ftok.text}' out of order for {cls_tok.text}", ftok)
            self.expect("=")
            values.append(_as_field_type(self.parse_object_value(), decl.fields[i][1]))
            if not self.accept(","):
                break
        self.expect("}")
        if len(values) != len(decl.fields):
            raise self.error(f"object @{name} gives {len(values)} of the {len(decl.fields)} "
                             f"fields of {cls_tok.text}", name_tok)
        if name in m.objects or name in m.tensors:
            raise self.error(f"symbol @{name} defined twice", name_tok)
        m.add_object(name, decl.name, values)

    def parse_object_value(self):
        if self.accept("{"):
            out = {}
            while not self.at("}"):
                key = self.parse_object_value()
                self.expect(":")
                out[key] = self.parse_object_value()
                if not self.accept(","):
                    break
            self.expect("}")
            return out
        if self.accept("["):
            items = []
            while not self.at("]"):
                items.append(self.parse_object_value())
                if not self.accept(","):
                    break
            self.expect("]")
            return items
        return self.parse_attr_value()

    # -- functions ---------------------------------------------------------------------------
    def parse_func(self) -> FuncOp:
        self.expect("func")
        name = self.expect_kind("symbol", "a function name").text[1:]
        self.expect("(")
        names, types, defaults, ptoks = [], [], [], []
        while not self.at(")"):
            ptoks.append(self.expect_kind("value", "a parameter"))
            names.append(self._value_hint(ptoks[-1].text))
            self.expect(":")
            types.append(self.parse_type())
            if self.accept("="):
                defaults.append(self.parse_attr_value())
            elif defaults:
                raise self.error("a parameter without a default follows one with a default")
            if not self.accept(","):
                break
        self.expect(")")
        self.expect("->")
        ret = self.parse_type()
        extra = self.parse_attr_dict() if self._at_attr_dict() else {}
        f = FuncOp(name, T.FunctionType(tuple(types), ret), Loc.unknown(), names, defaults)
        f.attrs.update(extra)
        self.expect("{")
        self.scopes = [{}]
        for arg, tok in zip(f.args, ptoks):
            self._define(arg, tok)
        self.parse_ops_into(f.body)
        self.expect("}")
        f.loc = self.parse_optional_loc()
        return f

    # -- ops ----------------------------------------------------------------------------------------
    def parse_ops_into(self, block: Block) -> None:
        while not self.at("}") and self.tok.kind != "eof":
            block.append(self.parse_op())

    def parse_op(self):
        start = self.tok
        result_toks = []
        if self.tok.kind == "value":
            result_toks.append(self.next())
            while self.accept(","):
                result_toks.append(self.expect_kind("value", "a result name"))
            self.expect("=")
        name_tok = self.expect_kind("ident", "an op name")
        name = name_tok.text
        if op_class(name) is None:
            raise self.error(f"unknown op '{name}'", name_tok)
        attrs = {}
        if name == "const":
            attrs["value"] = self.parse_attr_value()
        operands = self.parse_operands()
        if self._at_attr_dict():
            attrs.update(self.parse_attr_dict())
        types = []
        if self.accept(":"):
            types.append(self.parse_type())
            while self.accept(","):
                types.append(self.parse_type())
        if len(types) != len(result_toks):
            raise self.error(f"'{name}' has {len(result_toks)} results but {len(types)} types",
                             start)
        regions = self.parse_regions()
        loc = self.parse_optional_loc()
        names = [self._value_hint(t.text) for t in result_toks]
        try:
            op = create_op(name, operands, types, attrs, regions, loc, names)
        except (TypeError, ValueError) as e:
            raise self.error(f"cannot build '{name}': {e}", name_tok) from None
        for r, t in zip(op.results, result_toks):
            self._define(r, t)
        return op

    def parse_operands(self):
        ops = []
        if self.tok.kind != "value":
            return ops
        ops.append(self._use(self.next()))
        while self.at(",") and self.peek().kind == "value":
            self.next()
            ops.append(self._use(self.next()))
        return ops

    def parse_regions(self):
        regions = []
        if not self.at("{") or self._at_attr_dict():
            return regions
        regions.append(self.parse_region())
        while self.at("}") is False and self.tok.kind == "ident" and self._label_then_brace():
            while self.tok.kind == "ident":
                self.next()
            regions.append(self.parse_region())
        return regions

    def _label_then_brace(self) -> bool:
        k = 0
        while self.peek(k).kind == "ident" and k < 3:
            k += 1
        return k > 0 and self.peek(k).text == "{" and self.peek(k).kind == "punct" and \
            self.tok.text in ("else", "do", "except", "finally", "region")

    def parse_region(self) -> Region:
        self.expect("{")
        block = Block()
        self.scopes.append({})
        if self.accept("^"):
            self.expect("(")
            while not self.at(")"):
                tok = self.expect_kind("value", "a block argument")
                self.expect(":")
                arg = block.add_arg(self.parse_type(), self._value_hint(tok.text))
                self._define(arg, tok)
                if not self.accept(","):
                    break
            self.expect(")")
            self.expect(":")
        self.parse_ops_into(block)
        self.expect("}")
        self.scopes.pop()
        return Region(block)

    def parse_optional_loc(self) -> Loc:
        if not self.at("loc"):
            return Loc.unknown()
        self.next()
        self.expect("(")
        if self.accept("unknown"):
            self.expect(")")
            return Loc.unknown()
        f = json.loads(self.expect_kind("string", "a file name").text)
        self.expect(":")
        line = int(self.expect_kind("number", "a line number").text)
        self.expect(":")
        col = int(self.expect_kind("number", "a column number").text)
        inlined = []
        if self.accept("inlined"):
            self.expect("(")
            while not self.at(")"):
                callee = json.loads(self.expect_kind("string", "a function name").text)
                self.expect(":")
                call_line = int(self.expect_kind("number", "a line").text)
                callee_file = json.loads(self.expect_kind("string", "a file name").text) \
                    if self.accept(":") else f
                inlined.append((callee, call_line, callee_file))
                if not self.accept(","):
                    break
            self.expect(")")
        self.expect(")")
        return Loc(f, line, col, tuple(inlined))

    # -- values ------------------------------------------------------------------------------
    @staticmethod
    def _value_hint(text: str) -> str | None:
        name = text[1:]
        return None if name.isdigit() else name

    def _define(self, v, tok: Token) -> None:
        scope = self.scopes[-1]
        if any(tok.text in s for s in self.scopes):
            raise self.error(f"value {tok.text} defined twice", tok)
        scope[tok.text] = v

    def _use(self, tok: Token):
        for s in reversed(self.scopes):
            if tok.text in s:
                return s[tok.text]
        raise self.error(f"use of undefined value {tok.text}", tok)

    # -- attributes --------------------------------------------------------------------------
    def _at_attr_dict(self) -> bool:
        return self.at("{") and self.peek().kind == "ident" and self.peek(2).text == "="

    def parse_attr_dict(self) -> dict:
        self.expect("{")
        attrs = {}
        while not self.at("}"):
            key = self.expect_kind("ident", "an attribute name").text
            self.expect("=")
            attrs[key] = self.parse_attr_value()
            if not self.accept(","):
                break
        self.expect("}")
        return attrs

    def parse_attr_value(self):
        tok = self.tok
        if tok.kind == "number":
            self.next()
            return _number(tok.text)
        if tok.kind == "string":
            self.next()
            return json.loads(tok.text)
        if tok.kind == "symbol":
            self.next()
            return SymbolRef(tok.text[1:])
        if tok.kind == "ident" and tok.text in ("true", "false", "none", "required"):
            self.next()
            return {"true": True, "false": False, "none": None, "required": REQUIRED}[tok.text]
        if self.accept("["):
            items = []
            while not self.at("]"):
                items.append(self.parse_attr_value())
                if not self.accept(","):
                    break
            self.expect("]")
            return items
        if self.accept("type"):
            self.expect("(")
            t = self.parse_type()
            self.expect(")")
            return t
        if self.accept("complex"):
            return self._complex()
        raise self.error(f"expected an attribute value, found '{tok.text}'")

    def _complex(self) -> complex:
        """`complex(re, im)`: both parts are float literals (nan, inf and -0.0 included)."""
        self.expect("(")
        parts = []
        for close in (",", ")"):
            tok = self.expect_kind("number", "a float")
            v = _number(tok.text)
            if not isinstance(v, float):
                raise self.error("a complex part must be a float literal", tok)
            parts.append(v)
            self.expect(close)
        return complex(*parts)

    # -- types -------------------------------------------------------------------------------
    def parse_type(self) -> T.Type:
        tok = self.tok
        if tok.kind == "classname":
            self.next()
            return T.ClassType(tok.text[1:])
        if tok.kind != "ident":
            raise self.error(f"expected a type, found '{tok.text or 'end of input'}'")
        self.next()
        name = tok.text
        if name in _SCALAR_TYPES:
            return _SCALAR_TYPES[name]
        parser = _TYPE_PARSERS.get(name)
        if parser is None:
            raise self.error(f"unknown type '{name}'", tok)
        return parser(self)

    def _type_list(self, close: str = ">"):
        items = []
        while not self.at(close):
            items.append(self.parse_type())
            if not self.accept(","):
                break
        self.expect(close)
        return items

    def _tensor(self) -> T.TensorType:
        if not self.accept("<"):
            return T.TENSOR
        dtype = None
        if not self.accept("?"):
            tok = self.expect_kind("ident", "a dtype")
            if tok.text not in T.DTYPES:
                raise self.error(f"unknown dtype '{tok.text}'", tok)
            dtype = tok.text
        shape = None
        if self.accept(","):
            self.expect("[")
            dims = []
            while not self.at("]"):
                dims.append(self._dim())
                if not self.accept(","):
                    break
            self.expect("]")
            shape = tuple(dims)
        self.expect(">")
        return T.TensorType(dtype, shape)

    def _dim(self):
        if self.accept("?"):
            return None
        tok = self.next()
        if tok.kind == "number" and tok.text.isdigit():
            return int(tok.text)
        if tok.kind == "ident":
            return tok.text
        raise self.error("expected a dimension (integer, symbol or ?)", tok)

    def _one(self, make):
        self.expect("<")
        t = self.parse_type()
        self.expect(">")
        return make(t)

    def _union(self) -> T.Type:
        self.expect("<")
        start = self.tok
        members = self._type_list()
        t = T.make_union(members)
        if str(t) != "union<" + ", ".join(map(str, members)) + ">":
            raise self.error("union members must be distinct, sorted and not optional", start)
        return t

    def _fn(self) -> T.FunctionType:
        self.expect("<")
        self.expect("(")
        params = self._type_list(")")
        self.expect("->")
        ret = self.parse_type()
        self.expect(">")
        return T.FunctionType(tuple(params), ret)

    def _dict(self) -> T.DictType:
        self.expect("<")
        k = self.parse_type()
        self.expect(",")
        v = self.parse_type()
        self.expect(">")
        return T.DictType(k, v)


_TYPE_PARSERS = {
    "tensor": Parser._tensor,
    "list": lambda p: p._one(T.ListType),
    "set": lambda p: p._one(T.SetType),
    "iter": lambda p: p._one(T.IterType),
    "optional": lambda p: p._one(T.OptionalType),
    "var": lambda p: p._one(T.VarType),
    "dict": Parser._dict,
    "tuple": lambda p: (p.expect("<"), T.TupleType(tuple(p._type_list())))[1],
    "vtuple": lambda p: p._one(T.VarTupleType),
    "union": Parser._union,
    "fn": Parser._fn,
}


def _number(text: str):
    if text.lstrip("-") in ("inf", "nan") or any(c in text for c in ".eE"):
        return float(text)
    return int(text)


def _as_field_type(v, t):
    """A parsed object value with tuples where the field's type has them."""
    if isinstance(t, T.OptionalType):
        return v if v is None else _as_field_type(v, t.elem)
    if isinstance(v, list) and isinstance(t, T.TupleType) and len(t.elems) == len(v):
        return tuple(_as_field_type(x, e) for x, e in zip(v, t.elems))
    if isinstance(v, list) and isinstance(t, T.ListType):
        return [_as_field_type(x, t.elem) for x in v]
    if isinstance(v, dict) and isinstance(t, T.DictType):
        return {k: _as_field_type(x, t.value) for k, x in v.items()}
    return v


def parse_module(text: str, filename: str = "<ir>") -> Module:
    """Parse IR text into a Module (raises IRParseError)."""
    return Parser(text, filename).parse_module()


def parse_type(text: str) -> T.Type:
    """Parse one type, e.g. "list<tensor<f32, [?, 3]>>"."""
    p = Parser(text, "<type>")
    t = p.parse_type()
    if p.tok.kind != "eof":
        raise p.error("unexpected text after the type")
    return t
