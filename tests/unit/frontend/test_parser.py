"""The lark parser: structure (against Python's own ast), spans, and syntax errors."""

import ast as pyast
import textwrap

import pytest

from ember.errors import ParseError, Source
from ember.frontend.parser import parse_module

from .pyast_compare import em_shape, py_shape

SNIPPETS = [
    "x = 1 + 2 * 3 - 4 / 5 // 6 % 7 ** 8",
    "y = -x ** 2 + (-x) ** 2 + 2 ** -1 + ~a & b | c ^ d << 1 >> 2",
    "z = not a and b or c and not d",
    "w = a < b <= c == d != e > f >= g",
    "v = a in b and c not in d and e is f and g is not h",
    "v = not a == b",
    "u = a if b else c if d else e",
    "t = f(a, b, c=1, d=[1, 2])(3)[4].attr[1:2][::3][a:b:c]",
    "s = [i * j for i in range(10) for j in range(i) if i % 2 if j]",
    "r = {k: v for k, v in zip(a, b) if k}",
    "q = (1,), (), (1, 2), [], {}, {1: 2, 3: 4}, {1, 2}",
    "p = 'a' \"b\" r'\\n' '\\x41\\u00e9'",
    "o = f'{x!r:>{w}} and {y:.2f} {{}} {z[0]}'",
    "n = lambda a, b=2: a + b",
    "m = sum(x * x for x in xs)",
    "l = 0x1F + 0o17 + 0b101 + 1_000 + 1.5e-3 + .5 + 5.",
    "k = None, True, False, ...",
    "a[1], b.c, *d = e",
    "x += 1\nx //= 2\nx **= 3",
    "xs: List[int] = []",
    "del xs[0], d['k']",
    "assert x > 0, 'positive'",
    "raise ValueError('bad') from e",
    "if a:\n    pass\nelif b:\n    x = 1\nelse:\n    x = 2",
    "while x > 0:\n    x -= 1\n    if x == 2: break\n    continue\nelse:\n    y = 0",
    "for i, (a, b) in enumerate(zip(xs, ys)):\n    print(i)\nelse:\n    pass",
    "try:\n    x = 1\nexcept (ValueError, KeyError) as e:\n    raise\nexcept Exception:\n"
    "    pass\nelse:\n    y = 2\nfinally:\n    z = 3",
    "def f(a: int, b: float = 1.0) -> int:\n    return a",
    "x = (a +\n     b)\ny = [1,\n     2,\n]",
    "x = 1; y = 2;",
    "x = a @ b",
    "x = (y := 5)",
]


@pytest.mark.parametrize("src", SNIPPETS)
def test_structure_matches_python(src):
    mine = parse_module(Source("t.py", src))
    theirs = pyast.parse(src)
    got = em_shape(mine.body)
    want = py_shape(theirs.body)
    if isinstance(theirs.body[0], pyast.FunctionDef):
        got = [em_shape(mine.body[0].body)]
        want = [py_shape(theirs.body[0].body)]
    assert got == want


def test_function_parameters():
    m = parse_module(Source("t.py", "def f(a, b: int = 2, *args, c, d=1, **kw) -> float:\n"
                                    "    pass\n"))
    f = m.body[0]
    assert [(a.arg, a.kind) for a in f.args] == [
        ("a", "normal"), ("b", "normal"), ("args", "star"), ("c", "kwonly"), ("d", "kwonly"),
        ("kw", "starstar")]
    assert f.returns.id == "float"


def test_spans_point_at_source():
    src = "def f(x: int) -> int:\n    y = x + 1\n    return y * 2\n"
    f = parse_module(Source("t.py", src, first_line=10)).body[0]
    assign = f.body[0]
    assert (assign.span.line, assign.span.col) == (11, 5)
    add = assign.value
    assert (add.span.line, add.span.col, add.span.end_col) == (11, 9, 14)
    ret = f.body[1]
    assert (ret.value.span.col, ret.value.span.end_col) == (12, 17)


def test_call_span_covers_parentheses():
    e = parse_module(Source("t.py", "f(a, b)\n")).body[0].value
    assert (e.span.col, e.span.end_col) == (1, 8)
    e = parse_module(Source("t.py", "x = []\n")).body[0].value
    assert (e.span.col, e.span.end_col) == (5, 7)


def test_fstring_expression_spans():
    e = parse_module(Source("t.py", "s = f'ab{x + 1}'\n")).body[0].value
    fv = e.values[1]
    assert (fv.value.span.col, fv.value.span.end_col) == (10, 15)


@pytest.mark.parametrize("src, line, col, match", [
    ("def f(x)\n    return x\n", 1, 9, "expected ':'"),
    ("def f(x):\nreturn x\n", 2, 1, "expected an indented block"),
    ("def f(x):\n    x = 1\n      y = 2\n", 3, 1, "unexpected indent"),
    ("def f(x):\n    if x:\n        y = 1\n      z = 2\n", 4, 1, "unindent"),
    ("x = 'abc\n", 1, 5, "unterminated string"),
    ("x = (1, 2\n", 1, 5, "'(' was never closed"),
    ("x = 1)\n", 1, 6, "unmatched ')'"),
    ("x = 1 $ 2\n", 1, 7, "invalid character"),
    ("x = = 2\n", 1, 5, "invalid syntax"),
])
def test_syntax_errors(src, line, col, match):
    with pytest.raises(ParseError) as ei:
        parse_module(Source("t.py", src))
    e = ei.value
    assert e.line == line, str(e)
    assert e.col == col, str(e)
    assert match in e.message
    assert "^" in str(e)


def test_deep_nesting_is_an_error_not_a_crash():
    src = "x = " + "[" * 1000 + "1" + "]" * 1000 + "\n"
    with pytest.raises(ParseError, match="too deep"):
        parse_module(Source("t.py", src))


def test_dedented_method_reports_file_columns():
    body = textwrap.dedent("""\
        def forward(self, x):
            return x +
    """)
    with pytest.raises(ParseError) as ei:
        parse_module(Source("m.py", body, first_line=20, col_offset=4))
    assert ei.value.line == 21
    assert ei.value.col == 4 + 15


@pytest.mark.parametrize("src", ["x = NoneType\n", "Nonesuch = Truex + Falsey\n",
                                 "def f(a: NoneType) -> NoneType:\n    return None\n",
                                 "class A:\n  x : NoneType\n"])
def test_keywords_are_not_prefixes_of_names(src):
    assert em_shape(parse_module(Source("t.py", src))) == py_shape(pyast.parse(src))
