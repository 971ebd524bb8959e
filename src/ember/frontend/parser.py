"""Source text -> ember AST, with lark (LALR + Python's indentation rules).

The grammar (grammar.lark) is built once per process, with the AST builder
(astbuild.py) as lark's embedded transformer: nodes are built during the LALR
reductions, no parse tree is materialized, and nothing recurses. The fast parser
below runs lark's tables and callbacks from cached plain data (tables.py), so that a
process builds lark's own parser only to report an error. Every lark error becomes
an ember ParseError with a caret at the offending token.
"""

from __future__ import annotations

import os
import re
import threading

from ember.errors import ParseError, Source, Span
from ember.frontend import ast as A
from ember.frontend import astbuild, astcache, diskcache, tables, typecomments
from ember.frontend.astbuild import BUILDER, span_of
from ember.frontend.tokens import Token

MAX_DEPTH = 200
"""Deepest expression/statement nesting accepted (deeper is a ParseError, not a crash)."""

_LOCK = threading.RLock()
_PARSERS: dict = {}


def _indenter():
    """lark's PythonIndenter for lark's own parser, made with it (this module imports lark
    only when lark's parser is needed)."""
    from lark.indenter import PythonIndenter
    from lark.lexer import Token as LarkToken

    class _Indenter(PythonIndenter):
        tab_len = 8

        def process(self, stream):
            """Each parse gets its own indentation state, so an f-string field parsed while
            a module parse is running (by the same parser) cannot disturb it."""
            fresh = _Indenter()
            fresh.paren_level, fresh.indent_level = 0, [0]
            return fresh._process(soft_keywords(stream))

        def _process(self, stream):
            """lark's Indenter._process with the token types bound once (it runs per
            token)."""
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
                yield LarkToken.new_borrow_pos(self.DEDENT_type, "", token) if token else \
                    LarkToken(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0)
            assert self.indent_level == [0], self.indent_level

    return _Indenter()


_OPENS, _CLOSES = frozenset(("LPAR", "LSQB", "LBRACE")), frozenset(("RPAR", "RSQB", "RBRACE"))
_SOFT = {"match": "MATCH", "case": "CASE"}
_NOT_AFTER_SOFT = frozenset(("DOT", "EQUAL", "AUGOP", "COMMA", "COLON", "SEMICOLON", "RPAR",
                             "RSQB", "RBRACE", "_NEWLINE", "PLUS", "SLASH", "SLASHSLASH",
                             "PERCENT", "POW", "AT", "LT", "GT", "EQEQ", "GE", "LE", "NE",
                             "VBAR", "CIRCUMFLEX", "AMPERSAND", "LSHIFT", "RSHIFT", "OR",
                             "AND", "IN", "IS", "IF", "RARROW"))


def soft_keywords(stream):
    """Python's soft keywords: a NAME `match` starting a line that ends with ':' (a match
    statement's head), or a NAME `case` starting a line with a ':' outside brackets (a case
    clause), becomes a MATCH or CASE token; elsewhere they stay names (`match = 3`,
    `case.x`, `match(x)`)."""
    start, paren = True, 0
    it = iter(stream)
    for token in it:
        kind = token.type
        if not (start and kind == "NAME" and token in _SOFT):
            start = kind == "_NEWLINE" and paren == 0
            paren += (kind in _OPENS) - (kind in _CLOSES)
            yield token
            continue
        line, depth, colon_at = [token], 0, []
        for t in it:
            line.append(t)
            if t.type == "_NEWLINE" and depth <= 0:
                break
            depth += (t.type in _OPENS) - (t.type in _CLOSES)
            if t.type == "COLON" and depth == 0:
                colon_at.append(len(line) - 1)
        ends = line[-1].type == "_NEWLINE"
        last = len(line) - 2 if ends else len(line) - 1
        soft = len(line) > 2 and line[1].type not in _NOT_AFTER_SOFT and colon_at and (
            colon_at[-1] == last if token == "match" else True)
        if soft:
            line[0] = type(token).new_borrow_pos(_SOFT[str(token)], str(token), token)
        yield from line
        start = ends


def _indent(stream):
    """The fast parser's postlexer: lark's PythonIndenter (tab_len 8) with its state in
    locals. Where lark's raises (a dedent to no open level, a closing bracket too many), this
    raises _Fallback at the same token, and lark's own parse reports it."""
    paren, levels = 0, [0]
    token = None
    for token in stream:
        kind = token.type
        if kind == "_NEWLINE":
            if paren > 0:
                continue
            yield token
            indent_str = token.rsplit("\n", 1)[1]
            indent = indent_str.count(" ") + indent_str.count("\t") * 8
            if indent > levels[-1]:
                levels.append(indent)
                yield Token.new_borrow_pos("_INDENT", indent_str, token)
                continue
            while indent < levels[-1]:
                levels.pop()
                yield Token.new_borrow_pos("_DEDENT", indent_str, token)
            if indent != levels[-1]:
                raise _Fallback
            continue
        yield token
        if kind in _OPENS:
            paren += 1
        elif kind in _CLOSES:
            paren -= 1
            if paren < 0:
                raise _Fallback
    while len(levels) > 1:
        levels.pop()
        yield Token.new_borrow_pos("_DEDENT", "", token) if token else \
            Token("_DEDENT", "", 0, 0, 0, 0, 0, 0)


def _parser():
    """lark's parser (built once, and only when needed: the fast parser usually runs from
    the cached tables): one LALR table for both start symbols, module text and f-string
    fields."""
    p = _PARSERS.get("lalr")
    if p is None:
        from lark import Lark
        from lark.lexer import Token as LarkToken

        astbuild.accept_tokens(LarkToken)
        p = Lark.open(_GRAMMAR, parser="lalr", postlex=_indenter(), transformer=BUILDER,
                      start=["file_input", "fstring_expr"], maybe_placeholders=True,
                      cache=_table_cache(_GRAMMAR), lexer="basic")
        _PARSERS["lalr"] = p
    return p


_GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.lark")


def _fast():
    """The fast parser (built once), or None where lark is set up in a way it does not
    cover: from the tables shipped with ember (fast_tables.json) when they are this
    grammar's, else from the cached tables (tables.py) if there are any, else from lark's."""
    if "lalr" not in _FAST:
        fast = _from_data(_packaged_tables())
        if fast is None:
            fast = _cached_or_built_tables()
        _FAST["lalr"] = fast
    return _FAST["lalr"]


def _cached_or_built_tables():
    """The fast parser from the tables in the user's cache, else from lark's (cached)."""
    path = _cache_file(_GRAMMAR, "fast-tables", f"{_lark_stamp()}/{tables.FORMAT}", "json")
    fast = _from_data(tables.load(path)) if path else None
    if fast is None:
        data = tables.export(_parser(), BUILDER)
        fast = _from_data(data)
        if fast is not None and path:
            diskcache.write_json(path, data)
    return fast


PACKAGED_TABLES = os.path.join(os.path.dirname(__file__), "fast_tables.json")
"""The fast parser's tables for grammar.lark, shipped so that a fresh install parses
without building lark's parser (~400 ms). `python -m ember.frontend.parser` rewrites them
after a grammar change (a test says when they are stale)."""


def _packaged_tables():
    data = tables.load(PACKAGED_TABLES)
    return data if data is not None and data.get("grammar") == grammar_digest() else None


_TABLE_SOURCES = ("grammar.lark", "tables.py", "firstchars.py")
"""The files that decide the packaged tables: the grammar, and the code that exports
lark's tables as data (tables.py) with the terminals' first characters (firstchars.py)."""


def grammar_digest() -> str:
    """The digest of _TABLE_SOURCES the packaged tables must carry to be used: tables
    built from another grammar (or exported by other code) are stale."""
    here = os.path.dirname(_GRAMMAR)
    parts = []
    for name in _TABLE_SOURCES:
        with open(os.path.join(here, name), "rb") as fh:
            parts.append(fh.read())
    return diskcache.digest(*parts)


def packaged_tables_data() -> dict | None:
    """What PACKAGED_TABLES should hold: the tables lark builds now, with the grammar's
    digest."""
    data = tables.export(_parser(), BUILDER)
    return None if data is None else {"grammar": grammar_digest(), **data}


def _lark_stamp() -> str:
    """Which lark the cached tables come from: the size and time of lark's __init__.py,
    which holds its version (reading lark.__version__ would import lark)."""
    import importlib.util

    spec = importlib.util.find_spec("lark")
    if spec is None or not spec.origin:
        return ""
    st = os.stat(spec.origin)
    return f"{st.st_size}:{st.st_mtime_ns}"


def _from_data(data):
    """The fast parser of data, or None for none or data this code cannot use."""
    if data is None:
        return None
    try:
        return _FastParser(data)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


def _table_cache(grammar_path: str):
    """Where lark keeps the built tables (a pickle it loads next time; 300 ms saved): a
    file in the user's own cache directory, never the shared temporary directory, where
    another user could plant one. False (build every time) if no private place exists."""
    return _cache_file(grammar_path, "lark-tables", "", "pickle")


def _cache_file(grammar_path: str, stem: str, salt: str, ext: str):
    """A file for stem in the private cache folder (diskcache.py), named by the grammar's
    (and salt's) digest; False if no private folder exists."""
    base = diskcache.folder()
    if not base:
        return False
    try:
        with open(grammar_path, "rb") as fh:
            key = diskcache.digest(fh.read(), salt)[:16]
    except OSError:
        return False
    return os.path.join(base, f"{stem}-{key}.{ext}")


class _Fallback(Exception):
    """The fast path met a lexer or parser error: lark's own parse reports it."""


class _FastParser:
    """lark's basic lexer and LALR loop, on lark's scanner patterns, tables and callbacks
    (from tables.py's data), without the per-token generality (line counter objects, rule
    lookups by hash). It accepts exactly the texts lark accepts and calls the same
    callbacks in the same order; where lark would raise UnexpectedInput it raises
    _Fallback instead."""

    def __init__(self, data: dict):
        self.flags = data["flags"]
        self.terminals = [(name, pattern) for name, pattern, _ in data["terminals"]]
        self.firsts = [(t, None if first is None else frozenset(first))
                       for t, (_, _, first) in zip(self.terminals, data["terminals"])]
        self.by_char: dict = {}
        """First character -> the match method of the alternation of the terminals that
        can start with it (see firstchars.py), built on first use."""
        self.by_terms: dict = {}
        self.ignore, self.newline = frozenset(data["ignore"]), frozenset(data["newline"])
        self.keywords = data["keywords"]
        self.states, self.start, self.end = data["states"], data["start"], data["end"]
        self.rules = [(size, origin, None if spec is None else tables.callback(spec, BUILDER))
                      for size, origin, spec in data["rules"]]

    def parse(self, text: str, start: str):
        tokens = _indent(soft_keywords(self.lex(text)))
        return self.drive(tokens, start)

    def lex(self, text: str):
        """BasicLexer.lex: the same tokens, types, values and positions."""
        by_char, ignore, newline, keywords = self.by_char, self.ignore, self.newline, \
            self.keywords
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            ch = text[pos]
            match = by_char.get(ch) or self._matcher(ch)
            m = match(text, pos, end)
            if m is None:
                raise _Fallback
            value, kind = m.group(0), m.lastgroup
            start, col = pos, pos - line_start + 1
            if kind in newline:
                n = value.count("\n")
                if n:
                    line_start = pos + value.rindex("\n") + 1
                    line_after = line + n
                else:
                    line_after = line
            else:
                line_after = line
            pos += len(value)
            if kind not in ignore:
                t = _new_str(Token, value)
                t.type, t.start_pos, t.value, t.line, t.column = kind, start, value, line, col
                t.end_line, t.end_column, t.end_pos = line_after, pos - line_start + 1, pos
                words = keywords.get(kind)
                if words is not None:
                    t.type = words.get(value, kind)
                yield t
            line = line_after

    def _matcher(self, ch: str):
        """The match method for tokens starting with ch."""
        terms = tuple(t for t, first in self.firsts if first is None or ch in first)
        match = self.by_terms.get(terms)
        if match is None:
            match = self.by_terms[terms] = self._compile(terms)
        self.by_char[ch] = match
        return match

    def _compile(self, terms):
        """Scanner._build_mres for terms, as one pattern (the whole scanner's if too big)."""
        if not terms:
            return lambda text, pos, end: None
        try:
            return self._alternation(terms)
        except AssertionError:  # more groups than `re` allows
            return self._alternation(self.terminals)

    def _alternation(self, terms):
        pattern = "|".join("(?P<%s>%s)" % (name, regexp) for name, regexp in terms)
        return re.compile(pattern, self.flags).match

    def drive(self, tokens, start: str):
        """lark's LALR loop (ParserState.feed_token) over tokens, then $END. A chain rule
        (`?a: b`, whose callback returns its only child) just changes the state."""
        states, rules = self.states, self.rules
        state_stack, value_stack = [self.start[start]], []
        token = None
        for token in tokens:
            kind = token.type
            while True:
                action = states[state_stack[-1]].get(kind)
                if action is None:
                    raise _Fallback
                if action >= 0:
                    state_stack.append(action)
                    value_stack.append(token)
                    break
                size, origin, callback = rules[~action]
                if callback is None:
                    state_stack[-1] = states[state_stack[-2]][origin]
                    continue
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value_stack.append(callback(children))
                state_stack.append(states[state_stack[-1]][origin])
        end = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
        return self._finish(end, start, state_stack, value_stack)

    def _finish(self, end, start, state_stack, value_stack):
        """The reductions $END triggers, up to the start symbol's end state."""
        states, end_state = self.states, self.end[start]
        while True:
            action = states[state_stack[-1]].get(end.type)
            if action is None or action >= 0:
                raise _Fallback
            size, origin, callback = self.rules[~action]
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value_stack.append(callback(children) if callback is not None else children[0])
            state_stack.append(states[state_stack[-1]][origin])
            if state_stack[-1] == end_state:
                return value_stack[-1]


_FAST: dict = {}
"""The fast parser under "lalr" once built (None: lark's parse only)."""
_new_str = str.__new__


_CACHE: dict = {}
_CACHE_SIZE = 512
"""Parsed sources by (file, first line, column offset, text), and expressions by that and
(text, line, column): scripting a model parses the same library functions again and
again. ASTs are never changed after parsing. Sources read from files are also kept on
disk (astcache.py), for the next process."""


def parse_module(source: Source) -> A.Module:
    """Parse a whole source text into an ast.Module (raises ParseError)."""
    key = (source.filename, source.first_line, source.col_offset, source.text)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    on_disk = _from_file(source)
    module = astcache.load(source) if on_disk else None
    if module is None:
        text = source.text if source.text.endswith("\n") else source.text + "\n"
        body = _parse(source, text, "file_input")
        module = A.Module(span_of(source, 1, 1, text.count("\n") + 1, 1), body)
        typecomments.apply(module, source, text, _fragment)
        check_depth(module)
        if on_disk:
            astcache.store(source, module)
    _remember(key, module)
    return module


def _remember(key, tree) -> None:
    with _LOCK:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = tree


def _from_file(source: Source) -> bool:
    """Whether source was read from a file (whose parse is kept on disk, astcache.py):
    texts given as strings are not, lest every generated program leave an entry."""
    name = source.filename
    return os.path.isabs(name) and name.endswith(".py") and os.path.isfile(name)


def parse_expression(text: str, source: Source, line: int, col: int) -> A.Node:
    """Parse an f-string replacement field's expression found at (line, col) of source."""
    key = (source.filename, source.first_line, source.col_offset, source.text, text, line, col)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    # a field met while parsing its module is kept in the module's entry, not one of its own
    on_disk = BUILDER.source is None and _from_file(source)
    node = astcache.load_expression(source, text, line, col) if on_disk else None
    if node is None:
        node = _fragment(text, source, line, col)
        if on_disk:
            astcache.store_expression(source, text, line, col, node)
    _remember(key, node)
    return node


def _fragment(text: str, source: Source, line: int, col: int) -> A.Node:
    """Parse an expression found at (line, col) of source, with spans in source."""
    sub = Source(source.filename, text, line, source.col_offset)
    node = _parse(sub, text.strip() + "\n", "fstring_expr")
    for n in A.walk(node):
        s = n.span
        end_col = s.end_col + col - 1 if s.end_line == s.line else s.end_col
        n.span = Span(source, s.line, s.col + col - 1, s.end_line, end_col)
    return node


def _parse(source: Source, text: str, start: str):
    with _LOCK:
        saved = BUILDER.source
        BUILDER.source = source
        if saved is None:
            BUILDER.reset()
        prefixed = set(BUILDER._prefixed)
        try:
            fast = _fast()
            if fast is not None:
                try:
                    return fast.parse(text, start)
                except _Fallback:
                    BUILDER._prefixed.clear()
                    BUILDER._prefixed.update(prefixed)
                except AssertionError:
                    raise _unbalanced(source) from None
            return _lark_parse(source, text, start)
        finally:
            BUILDER.source = saved


def _lark_parse(source: Source, text: str, start: str):
    """lark's own parse, its errors as ParseErrors."""
    from lark.exceptions import LarkError, UnexpectedInput
    from lark.indenter import DedentError

    try:
        return _parser().parse(text, start=start)
    except DedentError:
        raise _dedent_error(source, text) from None
    except UnexpectedInput as e:
        raise _syntax_error(source, e) from None
    except AssertionError:  # lark's indenter asserts on unbalanced brackets
        raise _unbalanced(source) from None
    except LarkError as e:
        orig = getattr(e, "orig_exc", None)
        if isinstance(orig, ParseError):
            raise orig from None
        raise ParseError(f"invalid syntax ({e})", span_of(source, 1, 1, 1, 2)) from None


def _unbalanced(source: Source) -> ParseError:
    return ParseError("unbalanced brackets", span_of(source, 1, 1, 1, 2))


def check_depth(node) -> None:
    stack = [(node, 0)]
    while stack:
        n, d = stack.pop()
        if d > MAX_DEPTH:
            raise ParseError("expression or statement nesting is too deep "
                             f"(ember's limit is {MAX_DEPTH})", n.span)
        d += 1
        stack.extend([(c, d) for c in A.children(n)])


# ----------------------------------------------------------------------------- errors

_TOKEN_WORDS = {
    "COLON": "':'", "RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'", "LPAR": "'('",
    "NAME": "a name", "_NEWLINE": "a new line", "EQUAL": "'='", "COMMA": "','",
    "CASE": "'case'",
}


def _syntax_error(source, e) -> ParseError:
    from lark.exceptions import UnexpectedEOF
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
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF
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
        return "invalid syntax in a match statement (its body holds `case` clauses)"
    if line_text.startswith("case ") and ":" in line_text:
        return ("invalid syntax in a case pattern (`as` is accepted after the whole "
                "pattern only, `case [a, b] as pair:`)")
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
    from lark.exceptions import UnexpectedEOF
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


if __name__ == "__main__":
    diskcache.write_json(PACKAGED_TABLES, packaged_tables_data())
    print(f"wrote {PACKAGED_TABLES}")

