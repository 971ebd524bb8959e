"""PEP 484 function type comments, read as TorchScript reads them.

    def f(x, y):
        # type: (int, float) -> float        the line(s) after the def, or its own line

    def g(x,  # type: int                    one comment per parameter
          y,  # type: float
          ):
        # type: (...) -> float               the return type (this line is optional)

A comment with no `-> R` leaves the return type to inference, as an unannotated def
does; a method's comment may leave out `self`. A parameter's or the return's own
annotation wins over the comment. The grammar ignores comments, so this module finds
them with Python's tokenizer (only in texts that hold "type:") and writes the types it
reads into the parsed FunctionDefs as annotations, with spans inside the comment: a bad
type is reported at the comment. `# type: ignore` comments are ignored.
"""

from __future__ import annotations

import io
import re
import tokenize

from ember.errors import ParseError, Source, Span
from ember.frontend import ast as A

_TYPE = re.compile(r"#\s*type:\s*")
_IGNORE = re.compile(r"ignore\b")
_BRACKETS = {"(": ")", "[": "]", "{": "}"}


class _Comment:
    __slots__ = ("line", "col", "text")

    def __init__(self, line: int, col: int, text: str):
        self.line, self.col, self.text = line, col, text
        """line: 1-based line of the parsed text; col: 0-based column where text starts."""


class _Def:
    """The type comments of one def: per parameter (inside its parentheses), and the
    function's own (after the header's colon)."""

    def __init__(self):
        self.params: list = []
        self.function: _Comment | None = None


def apply(module: A.Module, source: Source, text: str, parse_fragment) -> None:
    """Give module's FunctionDefs the types their type comments state. parse_fragment
    (text, source, line, col) parses an expression found at absolute (line, 1-based col)."""
    if "type:" not in text:
        return
    found = _scan(text)
    if not found:
        return
    off = source.first_line - 1
    methods = {id(n) for c in A.walk(module) if isinstance(c, A.ClassDef) for n in c.body}
    for node in A.walk(module):
        if isinstance(node, A.FunctionDef) and node.name_span is not None:
            entry = found.get((node.name_span.line - off, node.name_span.col - 1))
            if entry is not None:
                _Applier(node, source, off, parse_fragment).apply(entry, id(node) in methods)


def _scan(text: str) -> dict:
    """(line, col) of each def's name (in text) -> its _Def, for defs with type comments."""
    out: dict = {}
    state, depth, current, name_at = "code", 0, None, None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, value, (line, col) = tok.type, tok.string, tok.start
            if kind == tokenize.COMMENT:
                comment = _type_comment(value, line, col)
                if comment is None:
                    continue
                if state == "header" and depth > 0:
                    current.params.append(comment)
                    out[name_at] = current
                elif state == "after" and current.function is None:
                    current.function = comment
                    out[name_at] = current
                continue
            if kind in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                continue
            if state == "after":
                state = "code"
            if state == "code":
                if kind == tokenize.NAME and value == "def":
                    state, depth, current, name_at = "def", 0, _Def(), None
                continue
            if state == "def":
                name_at, state = (line, col), "header"
                continue
            if kind == tokenize.OP:
                if value in _BRACKETS:
                    depth += 1
                elif value in (")", "]", "}"):
                    depth -= 1
                elif value == ":" and depth == 0:
                    state = "after"
    except (tokenize.TokenError, SyntaxError):
        pass  # the text parsed: this is its end (an unfinished def's body), keep what was read
    return out


def _type_comment(value: str, line: int, col: int) -> _Comment | None:
    m = _TYPE.match(value)
    if m is None:
        return None
    body = value[m.end():].rstrip()
    if _IGNORE.match(body):
        return None
    return _Comment(line, col + m.end(), body)


class _Applier:
    def __init__(self, node: A.FunctionDef, source: Source, off: int, parse_fragment):
        self.node, self.source, self.off, self.parse = node, source, off, parse_fragment

    def error(self, message: str, comment: _Comment, start: int = 0, length: int = 0):
        line, col = comment.line + self.off, comment.col + start + 1
        end = col + max(1, length or len(comment.text) - start)
        return ParseError(f"type comment: {message}", Span(self.source, line, col, line, end))

    def expr(self, comment: _Comment, start: int, end: int) -> A.Node:
        text = comment.text[start:end]
        lead = len(text) - len(text.lstrip())
        if not text.strip():
            raise self.error("expected a type", comment, start)
        return self.parse(text.strip(), self.source, comment.line + self.off,
                          comment.col + start + lead + 1)

    def apply(self, entry: _Def, method: bool) -> None:
        params = [a for a in self.node.args if a.kind == "normal"]
        for comment in entry.params:
            self._parameter(params, comment)
        if entry.function is not None:
            self._function(params, entry.function, method)

    def _parameter(self, params, comment: _Comment) -> None:
        here = [a for a in params if a.span.line - self.off == comment.line and
                a.span.col - 1 < comment.col]
        if not here:
            raise self.error("no parameter on this line", comment)
        if here[-1].annotation is None:
            here[-1].annotation = self.expr(comment, 0, len(comment.text))

    def _function(self, params, comment: _Comment, method: bool) -> None:
        text = comment.text
        if not text.startswith("("):
            raise self.error("a function's type comment looks like (int, float) -> float",
                             comment)
        close = _closing(text)
        if close is None:
            raise self.error("'(' was never closed", comment, 0, 1)
        rest = text[close + 1:]
        if rest.strip():
            arrow = len(rest) - len(rest.lstrip())
            if not rest.lstrip().startswith("->"):
                raise self.error("expected '->' after the parameter types", comment,
                                 close + 1 + arrow)
            if self.node.returns is None:
                self.node.returns = self.expr(comment, close + 3 + arrow, len(text))
        inner = text[1:close]
        if inner.strip() == "...":
            return
        types = self._types(comment, close)
        if method and len(types) == len(params) - 1 and params:
            params = params[1:]  # a method's comment leaves out self
        if len(types) != len(params):
            raise self.error(f"{len(types)} type(s) for {len(params)} parameter(s)",
                             comment, 0, close + 1)
        for param, t in zip(params, types):
            if param.annotation is None:
                param.annotation = t

    def _types(self, comment: _Comment, close: int) -> list:
        """The parameter types: the text inside the parentheses, parsed as the list
        display [ ... ] written over them (so that columns stay the comment's)."""
        if not comment.text[1:close].strip():
            return []
        shown = "[" + comment.text[1:close] + "]"
        node = self.parse(shown, self.source, comment.line + self.off, comment.col + 1)
        return list(node.elts) if isinstance(node, A.List) else [node]


def _closing(text: str) -> int | None:
    """The index of the bracket closing text[0], or None."""
    stack = []
    for i, ch in enumerate(text):
        if ch in _BRACKETS:
            stack.append(_BRACKETS[ch])
        elif ch in (")", "]", "}"):
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return i
    return None
