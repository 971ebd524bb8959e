"""Source text -> ember AST, with lark (LALR + Python's indentation rules).

The grammar (grammar.lark) is built once per process, with the AST builder
(astbuild.py) as lark's embedded transformer: nodes are built during the LALR
reductions, no parse tree is materialized, and nothing recurses. Every lark
error becomes an ember ParseError with a caret at the offending token.
"""

from __future__ import annotations

import os
import threading

from lark import Lark
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.indenter import DedentError, PythonIndenter
from lark.lexer import Token

from ember.errors import ParseError, Source, Span
from ember.frontend import ast as A
from ember.frontend.astbuild import BUILDER, span_of

MAX_DEPTH = 200
"""Deepest expression/statement nesting accepted (deeper is a ParseError, not a crash)."""

_LOCK = threading.RLock()
_PARSERS: dict[str, Lark] = {}


class _Indenter(PythonIndenter):
    tab_len = 8

    def process(self, stream):
        """Each parse gets its own indentation state, so an f-string field parsed while a
        module parse is running (by the same parser) cannot disturb it."""
        fresh = _Indenter()
        fresh.paren_level, fresh.indent_level = 0, [0]
        return fresh._process(stream)

    def _process(self, stream):
        """lark's Indenter._process with the token types bound once (it runs per token)."""
        nl, opens, closes = self.NL_type, frozenset(self.OPEN_PAREN_types), \
            frozenset(self.CLOSE_PAREN_types)
        token = None
        for token in stream:
            kind = token.type
            if kind == nl:
                yield from self.handle_NL(token)
                continue
            yield token
            if kind in opens:
                self.paren_level += 1
            elif kind in closes:
                self.paren_level -= 1
                assert self.paren_level >= 0
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, "", token) if token else \
                Token(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0)
        assert self.indent_level == [0], self.indent_level


def _parser() -> Lark:
    """The parser (built once): one LALR table for both start symbols, module text and
    f-string fields."""
    p = _PARSERS.get("lalr")
    if p is None:
        path = os.path.join(os.path.dirname(__file__), "grammar.lark")
        p = _PARSERS["lalr"] = Lark.open(path, parser="lalr", postlex=_Indenter(),
                                         transformer=BUILDER,
                                         start=["file_input", "fstring_expr"],
                                         maybe_placeholders=True, cache=True, lexer="basic")
    return p


_CACHE: dict = {}
_CACHE_SIZE = 512
"""Parsed sources by (file, first line, column offset, text): scripting a model parses the
same library functions again and again. ASTs are never changed after parsing."""


def parse_module(source: Source) -> A.Module:
    """Parse a whole source text into an ast.Module (raises ParseError)."""
    key = (source.filename, source.first_line, source.col_offset, source.text)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    text = source.text if source.text.endswith("\n") else source.text + "\n"
    body = _parse(source, text, "file_input")
    module = A.Module(span_of(source, 1, 1, text.count("\n") + 1, 1), body)
    check_depth(module)
    with _LOCK:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = module
    return module


def parse_expression(text: str, source: Source, line: int, col: int) -> A.Node:
    """Parse an f-string replacement field's expression found at (line, col) of source."""
    sub = Source(source.filename, text, line, source.col_offset)
    node = _parse(sub, text.strip() + "\n", "fstring_expr")
    for n in A.walk(node):
        s = n.span
        end_col = s.end_col + col - 1 if s.end_line == s.line else s.end_col
        n.span = Span(source, s.line, s.col + col - 1, s.end_line, end_col)
    return node


def _parse(source: Source, text: str, start: str):
    parser = _parser()
    with _LOCK:
        saved = BUILDER.source
        BUILDER.source = source
        if saved is None:
            BUILDER.reset()
        try:
            return parser.parse(text, start=start)
        except DedentError:
            raise _dedent_error(source, text) from None
        except UnexpectedInput as e:
            raise _syntax_error(source, e) from None
        except AssertionError:  # lark's indenter asserts on unbalanced brackets
            raise ParseError("unbalanced brackets", span_of(source, 1, 1, 1, 2)) from None
        except LarkError as e:
            orig = getattr(e, "orig_exc", None)
            if isinstance(orig, ParseError):
                raise orig from None
            raise ParseError(f"invalid syntax ({e})",
                             span_of(source, 1, 1, 1, 2)) from None
        finally:
            BUILDER.source = saved


def check_depth(node) -> None:
    stack = [(node, 0)]
    while stack:
        n, d = stack.pop()
        if d > MAX_DEPTH:
            raise ParseError("expression or statement nesting is too deep "
                             f"(ember's limit is {MAX_DEPTH})", n.span)
        stack.extend((c, d + 1) for c in A.children(n))


# ----------------------------------------------------------------------------- errors

_TOKEN_WORDS = {
    "COLON": "':'", "RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'", "LPAR": "'('",
    "NAME": "a name", "_NEWLINE": "a new line", "EQUAL": "'='", "COMMA": "','",
}


def _syntax_error(source, e) -> ParseError:
    unclosed = _unclosed_bracket(source, e)
    if unclosed is not None:
        line, col, ch = unclosed
        return ParseError(f"'{ch}' was never closed", span_of(source, line, col, line, col + 1))
    line = getattr(e, "line", 1) or 1
    col = getattr(e, "column", 1) or 1
    tok = getattr(e, "token", None)
    ttype = getattr(tok, "type", "")
    if ttype in ("_INDENT", "_DEDENT"):
        line, col = tok.end_line or line, 1
    if line < 1 or isinstance(e, UnexpectedEOF) or ttype == "$END":
        lines = source.text.rstrip("\n").split("\n")
        line, col = len(lines), len(lines[-1]) + 1
    return ParseError(_describe(source, e), span_of(source, line, col, line, col + 1))


def _describe(source, e) -> str:
    if isinstance(e, UnexpectedCharacters):
        ch = source.text[e.pos_in_stream] if e.pos_in_stream < len(source.text) else ""
        if ch in "'\"":
            return "unterminated string literal"
        if ch in ")]}":
            return f"unmatched '{ch}'"
        return f"invalid character {ch!r}"
    if isinstance(e, UnexpectedEOF):
        return "unexpected end of input (unclosed bracket?)"
    tok = getattr(e, "token", None)
    expected = set(getattr(e, "expected", ()) or ())
    ttype = getattr(tok, "type", "")
    if ttype == "_INDENT":
        return "unexpected indent"
    if ttype == "_DEDENT":
        return "unexpected unindent"
    if ttype == "$END":
        return "unexpected end of input (unclosed bracket?)"
    if ttype in ("RPAR", "RSQB", "RBRACE"):
        return f"unmatched {tok.value!r}"
    line_text = source.line(getattr(tok, "line", 0) + source.first_line - 1).strip()
    if line_text.startswith("match ") and line_text.endswith(":"):
        return "invalid syntax: 'match' statements are not supported"
    if "_INDENT" in expected and len(expected) == 1 or _after_colon(source, tok):
        return "expected an indented block"
    if "COLON" in expected and ttype in ("_NEWLINE", "NAME", "EQUAL", "LPAR"):
        return "expected ':'"
    if ttype == "_NEWLINE" and "_INDENT" in expected:
        return "expected an indented block"
    if ttype == "_NEWLINE":
        return "invalid syntax: unexpected end of line"
    if expected and len(expected) <= 3:
        want = " or ".join(sorted(_TOKEN_WORDS.get(x, x) for x in expected))
        return f"invalid syntax: expected {want}, found {tok.value!r}"
    return f"invalid syntax: unexpected {tok.value!r}" if tok is not None else "invalid syntax"


def _unclosed_bracket(source, e):
    """(line, col, char) of a bracket left open before the error point, as CPython reports."""
    tok = getattr(e, "token", None)
    end = getattr(e, "pos_in_stream", None)
    if end is None and tok is not None:
        end = getattr(tok, "start_pos", None)
    text = source.text
    if end is None or isinstance(e, UnexpectedEOF) or getattr(tok, "type", "") == "$END":
        end = len(text)
    stack = []
    i = 0
    quote = None
    while i < min(end, len(text)):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif c == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            i += len(quote)
            continue
        elif c in "([{":
            stack.append(i)
        elif c in ")]}" and stack:
            stack.pop()
        i += 1
    if not stack:
        return None
    pos = stack[-1]
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    err_line = getattr(tok, "line", None) or line
    if err_line == line and not isinstance(e, UnexpectedEOF) and \
            getattr(tok, "type", "") != "$END":
        return None  # the error is on the bracket's own line: report it there
    return line, col, text[pos]


def _after_colon(source, tok) -> bool:
    """True if tok starts a line and the previous code line ends with ':' (a block header)."""
    line = getattr(tok, "line", None)
    if not line or getattr(tok, "column", 0) != 1:
        return False
    lines = source.text.split("\n")[:line - 1]
    for prev in reversed(lines):
        code = prev.split("#", 1)[0].rstrip()
        if code:
            return code.endswith(":")
    return False


def _dedent_error(source, text) -> ParseError:
    # lark does not say where: find the first line whose indentation matches no open block.
    stack = [0]
    for i, raw in enumerate(text.splitlines(), 1):
        stripped = raw.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        width = len(raw.expandtabs(8)) - len(stripped.expandtabs(8))
        if width > stack[-1]:
            stack.append(width)
        while width < stack[-1]:
            stack.pop()
        if width != stack[-1]:
            return ParseError("unindent does not match any outer indentation level",
                              span_of(source, i, 1, i, 2))
    return ParseError("unindent does not match any outer indentation level",
                      span_of(source, 1, 1, 1, 2))
