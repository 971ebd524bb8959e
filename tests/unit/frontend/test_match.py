"""`match` and `case` are soft keywords: statements where Python reads them so, names
elsewhere."""

import pytest

from ember import CompilationUnit
from ember.errors import ParseError, Source
from ember.frontend import ast as A
from ember.frontend import parser as P

NAMES = '''
def f(match: int, case: List[int]) -> int:
    match = match + 1
    case.append(match)
    x = case[0] if case else match
    match, y = x, 2
    return match + len(case) + y
'''


def test_match_and_case_stay_names_outside_match_statements():
    assert CompilationUnit(NAMES).f(1, [5]) == 5 + 2 + 2


def test_a_match_statement_parses_into_its_cases():
    text = "match x:\n    case [a, *b] if a:\n        pass\n    case _:\n        pass\n"
    (m,) = P.parse_module(Source("t.py", text)).body
    assert isinstance(m, A.Match) and [type(c) for c in m.body] == [A.MatchCase] * 2
    assert isinstance(m.body[0].pattern, A.List) and m.body[0].guard is not None


def test_a_nested_as_is_a_parse_error_at_its_line():
    text = "def f(x: int) -> int:\n    match x:\n        case [1 as a]:\n            return a\n"
    with pytest.raises(ParseError) as e:
        CompilationUnit(text)
    assert e.value.span.line == 3 and "case pattern" in str(e.value)


def test_cases_run_in_order_with_guards_and_captures():
    cu = CompilationUnit('''
def f(xs: List[int]) -> str:
    match xs:
        case [a, b] if a > b:
            return "down"
        case [a, b]:
            return "up " + str(a + b)
        case [a, *rest] if len(rest) > 2:
            return "long"
        case _:
            return "other"
''')
    assert [cu.f(x) for x in ([2, 1], [1, 2], [1, 2, 3, 4], [1])] == \
        ["down", "up 3", "long", "other"]
