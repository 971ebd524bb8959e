"""Parsed sources kept on disk (diskcache.py), so that a fresh process does not parse the
ember.nn layers and the user's classes again (the first parse of each costs ~1-3 ms).

An entry is the AST as nested JSON lists, each container tagged by its first item:

    [0, item, ...]                        a list
    [1, item, ...]                        a tuple
    [2, line, col, end_line, end_col]     a Span (of the Source being parsed)
    [3, node class, line, col, end_line, end_col, field, ...]   a Node
    [4, real, imag] / [5, hex] / [6]      a complex / bytes / Ellipsis constant

str, int, float, bool and None stand for themselves. An entry's name digests the source
(file name, first line, column offset, text) and the parser itself (the grammar, the files
that build and define the AST, and the node classes' fields), so an edit to either makes
a new entry. Decoding checks every tag and node arity; anything unexpected is a miss.
"""

from __future__ import annotations

import os
from dataclasses import fields

from ember.errors import Source, Span
from ember.frontend import ast as A
from ember.frontend import diskcache

KIND = "ast"
FORMAT = 1

_NODE_CLASSES = tuple(sorted((c for c in vars(A).values()
                              if isinstance(c, type) and issubclass(c, A.Node)),
                             key=lambda c: c.__name__))
_INDEX = {c: i for i, c in enumerate(_NODE_CLASSES)}
_FIELDS = tuple(tuple(f.name for f in fields(c) if f.name != "span") for c in _NODE_CLASSES)
_PARSER_FILES = ("grammar.lark", "astbuild.py", "ast.py", "parser.py", "tables.py",
                 "tokens.py", "astcache.py", "typecomments.py")
_STAMP: list = []


def _parser_stamp() -> str:
    """A digest of what decides the AST of a text (computed once per process)."""
    if not _STAMP:
        here = os.path.dirname(os.path.abspath(__file__))
        parts = [str(FORMAT), repr(tuple(zip((c.__name__ for c in _NODE_CLASSES), _FIELDS)))]
        try:
            for name in _PARSER_FILES:
                with open(os.path.join(here, name), "rb") as fh:
                    parts.append(fh.read())
        except OSError:
            parts.append(os.urandom(16))  # unreadable: entries of this process only
        _STAMP.append(diskcache.digest(*parts))
    return _STAMP[0]


def key_of(source: Source) -> str:
    return diskcache.digest(_parser_stamp(), source.filename, source.first_line,
                            source.col_offset, source.text)


def load(source: Source):
    """The cached ast.Module of source, or None."""
    module = _load(key_of(source), source)
    return module if type(module) is A.Module else None


def store(source: Source, module: A.Module) -> None:
    _store(key_of(source), module)


def _expression_key(source: Source, text: str, line: int, col: int) -> str:
    return diskcache.digest(key_of(source), text, line, col)


def load_expression(source: Source, text: str, line: int, col: int):
    """The cached parse of expression text found at (line, col) of source, or None."""
    node = _load(_expression_key(source, text, line, col), source)
    return node if isinstance(node, A.Node) else None


def _load(key: str, source: Source):
    data = diskcache.load(KIND, key)
    if data is None:
        return None
    try:
        return decode(data, source)
    except (TypeError, ValueError, IndexError, KeyError, RecursionError):
        return None


def store_expression(source: Source, text: str, line: int, col: int, node) -> None:
    _store(_expression_key(source, text, line, col), node)


def _store(key: str, tree) -> None:
    try:
        data = encode(tree)
    except (TypeError, RecursionError):
        return
    diskcache.store(KIND, key, data)


_PLAIN = (str, int, float, bool, type(None))


def encode(value):
    """value (a node, or a field's value) as JSON-ready data."""
    t = type(value)
    if t in _PLAIN:
        return value
    if t is list:
        return [0, *map(encode, value)]
    if t is tuple:
        return [1, *map(encode, value)]
    if t is Span:
        return [2, value.line, value.col, value.end_line, value.end_col]
    i = _INDEX.get(t)
    if i is not None:
        s = value.span
        return [3, i, s.line, s.col, s.end_line, s.end_col,
                *(encode(getattr(value, name)) for name in _FIELDS[i])]
    if t is complex:
        return [4, value.real, value.imag]
    if t is bytes:
        return [5, value.hex()]
    if value is Ellipsis:
        return [6]
    raise TypeError(f"cannot cache a {t.__name__} in an AST")


def decode(data, source: Source):
    """The value encode gave data as, with spans in source."""
    if type(data) is not list:
        if type(data) in _PLAIN:
            return data
        raise ValueError("not an encoded AST value")
    tag = data[0]
    if tag == 3:
        i = data[1]
        if type(i) is not int or not 0 <= i < len(_NODE_CLASSES) or \
                len(data) != 6 + len(_FIELDS[i]):
            raise ValueError("bad node")
        args = [decode(item, source) for item in data[6:]]
        return _NODE_CLASSES[i](_span(source, data[2:6]), *args)
    if tag == 0:
        return [decode(item, source) for item in data[1:]]
    if tag == 1:
        return tuple(decode(item, source) for item in data[1:])
    if tag == 2:
        return _span(source, data[1:])
    if tag == 4 and len(data) == 3:
        return complex(float(data[1]), float(data[2]))
    if tag == 5 and len(data) == 2 and type(data[1]) is str:
        return bytes.fromhex(data[1])
    if tag == 6 and len(data) == 1:
        return Ellipsis
    raise ValueError("bad tag")


def _span(source: Source, pos) -> Span:
    if len(pos) != 4 or any(type(p) is not int for p in pos):
        raise ValueError("bad span")
    return Span(source, *pos)
