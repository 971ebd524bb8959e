"""The specialized lexer/LALR loop gives what lark's own parse gives, errors included."""

import pytest

from ember.errors import ParseError, Source
from ember.frontend import parser as P
from ember.frontend.firstchars import first_chars

from .test_parser import SNIPPETS

BROKEN = ["x = (1,\n", "def f(:\n    pass\n", "x = 1 $ 2\n", "if x:\npass\n",
          "x = 'abc\n", "  x = 1\n", "def f():\n        a = 1\n    b = 2\n", "x = 1 +\n",
          "x = é + 1\n", "x = 1 → 2\n", "f'{'\n", "x = [1, 2)\n"]


def _outcome(text, fast: bool):
    P._CACHE.clear()
    saved = dict(P._FAST)
    if not fast:
        P._FAST["lalr"] = None
    try:
        return "ok", repr(P.parse_module(Source("t.py", text)))
    except ParseError as e:
        return "error", str(e), repr(e.span)
    finally:
        P._FAST.clear()
        P._FAST.update(saved)


@pytest.mark.parametrize("text", SNIPPETS + BROKEN)
def test_fast_path_matches_lark(text):
    assert P._fast() is not None
    assert _outcome(text, True) == _outcome(text, False)


@pytest.mark.parametrize("pattern, chars", [
    ("abc", "a"), ("a*b", "ab"), ("[0-9]+x", "0123456789"), ("(?:ab|cd)?e", "ace"),
    ("(?s:x.)", "x"), ("(?!y)z", "z"),
])
def test_first_chars(pattern, chars):
    assert first_chars(pattern) == frozenset(chars)


@pytest.mark.parametrize("pattern", [r"\w+", "[^a]", "(?i:a)", "."])
def test_first_chars_unknown(pattern):
    assert first_chars(pattern) is None


def test_tables_round_trip_through_the_cache(tmp_path, monkeypatch):
    """A fresh process parses from the cached tables without building lark's parser, and
    gets what the tables exported from lark give."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(P, "PACKAGED_TABLES", str(tmp_path / "none.json"))  # a stale one
    monkeypatch.setattr(P, "_FAST", {})
    text = SNIPPETS[0]
    built = _outcome(text, True)
    assert list((tmp_path / "ember").glob("fast-tables-*.json"))
    monkeypatch.setattr(P, "_FAST", {})
    monkeypatch.setattr(P, "_PARSERS", {})
    assert _outcome(text, True) == built
    assert P._PARSERS == {}
    assert P._fast() is not None


def test_unusable_cached_tables_are_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(P, "PACKAGED_TABLES", str(tmp_path / "none.json"))
    monkeypatch.setattr(P, "_FAST", {})
    P._fast()
    (cached,) = (tmp_path / "ember").glob("fast-tables-*.json")
    cached.write_text('{"format": 1, "rules": 3}')
    monkeypatch.setattr(P, "_FAST", {})
    assert P._fast() is not None
    assert _outcome(SNIPPETS[0], True) == _outcome(SNIPPETS[0], False)


def test_cached_callbacks_follow_the_builder_of_the_day():
    """Whether a rule calls a builder method is decided when the tables are loaded, so
    cached tables stay right when the AST builder gains or loses a method."""
    from ember.frontend import tables

    class Builder:
        def __default__(self, data, children, meta):
            return ("default", data, children)

        def atom(self, children):
            return ("method", children)

    b = Builder()
    assert tables.callback([["default", "atom"]], b)([1]) == ("method", [1])
    assert tables.callback([["method", "other"]], b)([1]) == ("default", "other", [1])
    assert tables.callback([["expand1"], ["default", "other"]], b)([7]) == 7


def test_the_packaged_tables_are_this_grammars():
    """fast_tables.json carries the digest of the grammar and of the code that exports the
    tables: after a change to either, regenerate it with `python -m ember.frontend.parser`.
    (Not byte-equality with the tables lark builds here: lark numbers its LALR states
    differently from one build to the next.)"""
    import json

    with open(P.PACKAGED_TABLES, encoding="utf-8") as fh:
        packaged = json.load(fh)
    assert packaged.get("grammar") == P.grammar_digest(), \
        "stale: run python -m ember.frontend.parser"
    assert P._from_data(P._packaged_tables()) is not None


def _sources():
    """Texts to parse both ways: the parser tests' snippets and broken texts, the corpus
    (valid and invalid programs) and ember's examples."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]
    files = sorted((root / "tests" / "corpus").glob("*/*.py")) + \
        sorted((root / "src" / "ember" / "examples").glob("*.py"))
    assert len(files) > 100
    return SNIPPETS + BROKEN + [f.read_text(encoding="utf-8") for f in files]


def _tokens(stream):
    try:
        return [(t.type, str(t), t.line, t.column, t.end_line, t.end_column, t.start_pos,
                 t.end_pos) for t in stream]
    except Exception as e:  # both fail on the same texts (lark's errors, or _Fallback)
        return ["error", type(e).__name__ == "_Fallback" or "lark" in type(e).__module__]


def test_the_packaged_tables_parse_like_lark(monkeypatch):
    """The shipped tables lex every text into lark's tokens and parse it into the AST (or
    the ParseError) lark's own parser gives."""
    fast = P._from_data(P._packaged_tables())
    assert fast is not None
    monkeypatch.setattr(P, "_FAST", {"lalr": fast})
    lark = P._parser()
    for text in _sources():
        text = text if text.endswith("\n") else text + "\n"
        assert _tokens(P._indent(P.soft_keywords(fast.lex(text)))) == \
            _tokens(lark.lex(text)), text
        assert _outcome(text, True) == _outcome(text, False), text


def test_a_fresh_install_parses_without_lark(tmp_path):
    """With an empty cache folder, valid code parses from the packaged tables: lark is
    neither imported nor built (it is imported only to report an error)."""
    import os
    import subprocess
    import sys
    code = ("import sys\nfrom ember.errors import Source\n"
            "from ember.frontend.parser import parse_module\n"
            "parse_module(Source('t.py', 'def f(x: int) -> int:\\n    return x + 1\\n'))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True, timeout=120)
        assert out.stdout.strip() == "[]"


def test_packaged_tables_of_another_grammar_are_not_used(tmp_path, monkeypatch):
    import json

    with open(P.PACKAGED_TABLES, encoding="utf-8") as fh:
        data = json.load(fh)
    stale = tmp_path / "fast_tables.json"
    stale.write_text(json.dumps(dict(data, grammar="another grammar")))
    monkeypatch.setattr(P, "PACKAGED_TABLES", str(stale))
    assert P._packaged_tables() is None
    stale.write_text(json.dumps(data))
    assert P._packaged_tables() is not None
