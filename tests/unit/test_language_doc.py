"""The examples of docs/language.md, run so that the page cannot rot.

A fenced ```python block right after one of these HTML comments is checked:

    <!-- run: f(3); g("x") -->         compiles; every call gives CPython's outcome
    <!-- differs: f(2**40) => OverflowError; g() => [1, 2] -->
                                        compiles; each call gives the stated outcome in
                                        ember (an exception class name or a Python literal)
                                        and a different one in CPython
    <!-- rejects: TypeCheckError -->    fails to compile with exactly this error class

Outcomes are compared like the corpus does: equal values of equal types, or the same
exception type and message.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

import ember
from ember import errors

DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"
_MARK = re.compile(r"^[ \t]*<!--\s*(run|differs|rejects):\s*(.*?)\s*-->[ \t]*\n"
                   r"[ \t]*```python\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)


def _examples():
    text = DOC.read_text()
    out = []
    for m in _MARK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        out.append(pytest.param(m.group(1), m.group(2), textwrap.dedent(m.group(3)),
                                id=f"{m.group(1)}-line{line}"))
    return out


EXAMPLES = _examples()


def test_the_page_has_checked_examples():
    kinds = {p.values[0] for p in EXAMPLES}
    assert kinds == {"run", "differs", "rejects"}, kinds
    assert len(EXAMPLES) >= 10


def _outcome(fn):
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e))


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


def _same_outcome(a, b) -> bool:
    if a[0] != b[0]:
        return False
    return a[1:] == b[1:] if a[0] == "raise" else _same(a[1], b[1])


def _calls(spec: str) -> list[str]:
    return [c.strip() for c in spec.split(";") if c.strip()]


def _namespaces(source: str):
    """(CPython namespace, namespace whose functions are the compiled ones)."""
    py: dict = {}
    exec(compile(source, str(DOC), "exec"), py)  # noqa: S102 - the doc's own example
    cu = ember.CompilationUnit(source, filename=str(DOC))
    return py, {name: getattr(cu, name) for name in cu.functions}


def _call(ns, call):
    return _outcome(lambda: eval(call, dict(ns)))


@pytest.mark.parametrize("kind, spec, source", EXAMPLES)
def test_example(kind, spec, source):
    if kind == "rejects":
        cls = getattr(errors, spec)
        with pytest.raises(errors.CompileError) as ei:
            ember.CompilationUnit(source, filename=str(DOC))
        assert type(ei.value) is cls, f"raised {type(ei.value).__name__}: {ei.value}"
        return
    py, em = _namespaces(source)
    calls = _calls(spec)
    assert calls, "an example marked run/differs names at least one call"
    for call in calls:
        if kind == "run":
            want, got = _call(py, call), _call(em, call)
            assert _same_outcome(want, got), f"{call}: ember {got!r}, CPython {want!r}"
            continue
        call, _, expected = (x.strip() for x in call.partition("=>"))
        got, cpython = _call(em, call), _call(py, call)
        if re.fullmatch(r"[A-Z]\w*", expected):  # an exception class name
            assert got[0] == "raise" and got[1] == expected, f"{call}: ember {got!r}"
        else:
            want = ("ok", ast.literal_eval(expected))
            assert _same_outcome(want, got), f"{call}: ember {got!r}, doc says {want!r}"
        assert not _same_outcome(got, cpython), \
            f"{call}: ember and CPython now agree ({got!r}); update the page"
