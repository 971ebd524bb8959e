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
        P._FAST.clear()
    try:
        return "ok", repr(P.parse_module(Source("t.py", text)))
    except ParseError as e:
        return "error", str(e), repr(e.span)
    finally:
        P._FAST.update(saved)


@pytest.mark.parametrize("text", SNIPPETS + BROKEN)
def test_fast_path_matches_lark(text):
    P._parser()
    assert P._FAST.get(P._PARSERS["lalr"]) is not None
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
