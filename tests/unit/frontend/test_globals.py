"""Module-level variables that functions assign under `global`, in a CompilationUnit:
CPython's results in process, after save -> ember.mobile.load, and with the LLVM backend
(each engine's program keeps its own values from call to call, as a module does)."""

import pytest

import ember
from ember import mobile
from ember.errors import TypeCheckError, UnsupportedError

SOURCE = '''
from typing import List, Tuple

COUNT = 0
TOTAL = 0.0
LOG = "start"
LIMIT = 3


def bump(k: int) -> int:
    global COUNT, TOTAL
    COUNT += k
    TOTAL = TOTAL + k / 2
    return COUNT


def read() -> int:
    return COUNT * 10


def note(s: str) -> str:
    global LOG
    if len(LOG) > 20:
        LOG = "reset"
    LOG = LOG + "," + s
    return LOG


def run(n: int) -> Tuple[List[int], int, float]:
    global COUNT, TOTAL
    COUNT = 0
    TOTAL = 0.0
    out: List[int] = []
    for i in range(n):
        if i >= LIMIT:
            break
        out.append(bump(i + 1))
    return out, read(), TOTAL
'''

CALLS = [("run", (2,)), ("bump", (5,)), ("read", ()), ("run", (5,)), ("note", ("a",)),
         ("note", ("bbbbbbbbbbbbbbbbbbbbbb",)), ("note", ("c",)), ("bump", (1,)), ("read", ())]


def _cpython():
    ns: dict = {}
    exec(compile(SOURCE, "<globals>", "exec"), ns)  # noqa: S102 - the test's own text
    return [ns[name](*args) for name, args in CALLS]


def _engine(kind, tmp_path):
    if kind == "llvm":
        pytest.importorskip("llvmlite")
    cu = ember.CompilationUnit(SOURCE, backend="llvm" if kind == "llvm" else "vm")
    if kind != "loaded":
        return lambda name: getattr(cu, name)
    loaded = {}
    for name in {n for n, _ in CALLS}:
        path = tmp_path / f"{name}.ember"
        getattr(cu, name).save(path)
        loaded[name] = getattr(mobile.load(path), name)
    return loaded.__getitem__


@pytest.mark.parametrize("kind", ["vm", "llvm"])
def test_globals_persist_between_calls_as_in_cpython(kind, tmp_path):
    fn = _engine(kind, tmp_path)
    assert [fn(name)(*args) for name, args in CALLS] == _cpython()


def test_a_loaded_program_starts_from_the_module_values(tmp_path):
    """Each saved entry is a program of its own: its globals start from the source's
    values when it is loaded."""
    fn = _engine("loaded", tmp_path)
    assert fn("run")(2) == ([1, 3], 30, 1.5)
    assert fn("bump")(5) == 5 and fn("bump")(1) == 6
    assert fn("read")() == 0


def test_assigning_another_type_is_an_error_at_its_line():
    with pytest.raises(TypeCheckError) as e:
        ember.CompilationUnit("X = 0\n\ndef f(a: int) -> int:\n    global X\n    X = 'a'\n"
                              "    return a\n")
    assert e.value.line == 5 and "module-level variable 'X'" in str(e.value)


def test_a_global_that_is_not_a_literal_constant_stays_refused():
    with pytest.raises(UnsupportedError) as e:
        ember.CompilationUnit("X = [1]\n\ndef f(a: int) -> int:\n    global X\n"
                              "    X = [a]\n    return a\n")
    assert e.value.line == 4
