"""`except SomeClass` around calls runs natively: every native site records its exception's
class code, so a handler picks the class the callee raised (and a class it does not name
propagates with the VM's type and message)."""

from __future__ import annotations

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = '''
import math
from typing import List
def inner(xs: List[int], i: int, k: int) -> int:
    if k == 0:
        return xs[i]
    if k == 1:
        return 10 // i
    if k == 2:
        return int(2.0 ** (i * 1000.0))
    if k == 3:
        return int(math.sqrt(-1.0 * i))
    if k == 4:
        return len([0] * (i << 40))
    if k == 5:
        return 1 << i
    if k == 6:
        return int(math.exp(i * 1000.0))
    return math.floor(i / 0.0 if i == 0 else float("nan") * i)
def outer(xs: List[int], i: int, k: int) -> int:
    try:
        return inner(xs, i, k)
    except IndexError:
        return -1
    except ZeroDivisionError:
        return -2
    except OverflowError:
        return -3
def anything(xs: List[int], i: int, k: int) -> int:
    try:
        return inner(xs, i, k)
    except Exception:
        return -9
'''


def _outcome(f, *a):
    try:
        return ("ok", f(*a))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return (type(e).__name__, str(e))


@pytest.mark.parametrize("name", ["outer", "anything"])
def test_handlers_pick_the_class_a_callee_raised(name):
    native = getattr(ember.CompilationUnit(SRC, backend="llvm"), name)
    vm = getattr(ember.CompilationUnit(SRC), name)
    assert native.backend == "llvm", native.fallback_reason
    cases = [([1, 2], 5, 0), ([1, 2], -1, 0), ([], 0, 1), ([], 3, 1), ([], 2, 2), ([], 0, 2),
             ([], 1, 3), ([], 0, 3), ([], 1, 4), ([], 70, 5), ([], -1, 5), ([], 3, 5),
             ([], 1, 6), ([], 1, 7), ([], 0, 7)]
    for xs, i, k in cases:
        assert _outcome(native, list(xs), i, k) == _outcome(vm, list(xs), i, k), (xs, i, k)


def test_a_site_of_unknown_class_keeps_the_dispatch_on_the_vm(monkeypatch):
    from ember.llvm import module

    monkeypatch.setenv("EMBER_CACHE", "0")  # (a cached plan would skip code generation)
    monkeypatch.setattr(module.ModuleGen, "exc_code", lambda self, site: 0)
    f = ember.CompilationUnit(SRC, backend="llvm").outer
    assert f.backend == "vm"
    assert "except clauses that need the class of an exception raised by a call" in \
        f.fallback_reason


RERAISE = '''
from typing import List
def pick(xs: List[int], i: int) -> int:
    return xs[i] // (i - 1)
def again(xs: List[int], i: int) -> int:
    try:
        return pick(xs, i)
    except IndexError:
        raise
    except ZeroDivisionError as e:
        try:
            xs[100] = 1
        except IndexError:
            xs.append(7)
        raise e
def outer(xs: List[int], i: int) -> int:
    try:
        return again(xs, i)
    except IndexError:
        return -1
    finally:
        xs.append(len(xs))
'''


@pytest.mark.parametrize("name", ["again", "outer"])
def test_a_caught_exception_raised_again_is_the_same(name):
    native = getattr(ember.CompilationUnit(RERAISE, backend="llvm"), name)
    vm = getattr(ember.CompilationUnit(RERAISE), name)
    assert native.backend == "llvm", native.fallback_reason
    for i in (0, 1, 2, 5, -9):
        a, b = [4, 5, 6], [4, 5, 6]
        assert _outcome(native, a, i) == _outcome(vm, b, i), i
        assert a == b


def test_the_traceback_of_a_raise_again_is_the_vms():
    notes = []
    for backend in ("llvm", "vm"):
        with pytest.raises(ZeroDivisionError) as ei:
            ember.CompilationUnit(RERAISE, backend=backend).outer([4, 5, 6], 1)
        notes.append(ei.value.__notes__)
    assert notes[0] == notes[1] and "raise e" in notes[0][0]


def test_each_calls_traceback_is_its_own():
    """Scalar calls share their thread's context block: a second error's traceback holds
    only its own frames."""
    f = ember.CompilationUnit(SRC, backend="llvm").outer
    notes = []
    for _ in range(3):
        with pytest.raises(ValueError) as ei:
            f([], 1, 3)
        notes.append(ei.value.__notes__)
    assert notes[0] == notes[1] == notes[2] and notes[0][0].count("in inner") == 1


def test_threads_get_their_own_errors():
    """Direct scalar calls in 6 threads at once: each result and each error (type,
    message, traceback) is the one its own call made."""
    import threading

    f = ember.CompilationUnit(SRC.replace("xs: List[int], ", "").replace("xs, ", "")
                              .replace("xs[i]", "i * 1"), backend="llvm").anything
    g = ember.CompilationUnit(SRC.replace("xs: List[int], ", "").replace("xs, ", "")
                              .replace("xs[i]", "i * 1")).anything
    assert f.backend == "llvm", f.fallback_reason

    def outcome(fn, *a):
        try:
            return ("ok", fn(*a))
        except Exception as e:  # noqa: BLE001 - the exception is the result being compared
            return (type(e).__name__, str(e), tuple(getattr(e, "__notes__", ())))
    cases = [(i, k) for i in (0, 1, 2, 3, 70) for k in range(8)] * 20
    want = [outcome(g, i, k) for i, k in cases]
    got = {}

    def work(t):
        got[t] = [outcome(f, i, k) for i, k in cases]
    threads = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(got[t] == want for t in range(6))


def test_an_uncaught_native_error_has_the_scripts_frames_in_its_traceback(tmp_path):
    """As the VM's translated functions do: the script's file and lines are real traceback
    entries (inlined callees included), innermost last."""
    import traceback

    path = tmp_path / "div.py"
    src = ("def g(a: float, b: float) -> float:\n    q = a / b\n    return q + 1.0\n"
           "def f(a: float, b: float) -> float:\n    x = 2.0\n    return g(a, b) * x\n")
    path.write_text(src)
    f = ember.CompilationUnit(src, filename=str(path), backend="llvm").f
    assert f.backend == "llvm", f.fallback_reason
    with pytest.raises(ZeroDivisionError) as ei:
        f(1.0, 0.0)
    entries = [(fs.filename, fs.lineno, fs.name) for fs in traceback.extract_tb(ei.tb)]
    assert entries[-2:] == [(str(path), 6, "f"), (str(path), 2, "g")]
    assert f(1.0, 2.0) == 3.0  # (and the next call is unaffected)
