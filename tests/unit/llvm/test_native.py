"""The LLVM backend through the public API: where code runs, exact results and errors,
the call boundary (checks, list identity, mutation), memory, threads and the cache."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = """
from typing import List, Optional, Tuple

def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def grow(xs: List[int], n: int) -> List[int]:
    for i in range(n):
        xs.append(i * i)
    return xs

def build(n: int) -> int:
    total = 0
    for i in range(n):
        ys = [i, i + 1, i + 2]
        zs = [ys, [i]]
        total += len(zs[0]) + zs[1][0]
    return total

def nested(n: int) -> List[List[float]]:
    out: List[List[float]] = []
    for i in range(n):
        out.append([float(i)] * i)
    return out

def divide(a: int, b: int) -> int:
    return a // b

def deep(n: int) -> int:
    return divide(n, n - 3) + 1

def pick(t: Tuple[int, float], o: Optional[int]) -> float:
    if o is None:
        return t[1]
    return t[0] + o + 0.5

def must(x: int) -> int:
    if x > 10:
        raise ValueError("too big")
    assert x >= 0, "negative"
    return x

def overflow(x: int) -> int:
    return x * x * x

def strings(x: int) -> str:
    return str(x)

def uses_strings(x: int) -> int:
    return len(strings(x))
"""


@pytest.fixture(scope="module")
def cu():
    return ember.CompilationUnit(SRC, "native_test.py", backend="llvm")


def test_where_each_function_runs(cu):
    assert cu.fib.backend == "llvm" and cu.fib.fallback_reason is None
    assert cu.strings.backend == "vm"
    assert "str" in cu.strings.fallback_reason and "native_test.py:" in cu.strings.fallback_reason
    assert cu.uses_strings.backend == "vm"
    assert "str" in cu.uses_strings.fallback_reason
    assert cu.uses_strings(1234) == 4


def test_results_and_types(cu):
    assert cu.fib(20) == 6765
    assert cu.pick((2, 1.5), None) == 1.5
    r = cu.pick((2, 1.5), 3)
    assert r == 5.5 and type(r) is float
    assert cu.nested(3) == [[], [1.0], [2.0, 2.0]]
    assert cu.build(10) == sum(3 + i for i in range(10))


def test_argument_lists_are_the_callers(cu):
    xs = [7]
    out = cu.grow(xs, 3)
    assert out is xs and xs == [7, 0, 1, 4]


def test_errors_are_the_vms(cu):
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero") as ei:
        cu.deep(3)
    note = "\n".join(ei.value.__notes__)
    assert "native_test.py" in note and "in divide" in note and "in deep" in note
    with pytest.raises(ValueError, match="too big"):
        cu.must(11)
    with pytest.raises(AssertionError, match="negative"):
        cu.must(-1)
    with pytest.raises(OverflowError, match="int64 overflow"):
        cu.overflow(3_000_000)
    with pytest.raises(RecursionError):
        cu.fib(-1) if False else _deep_recursion()


def _deep_recursion():
    cu2 = ember.CompilationUnit("def r(n: int) -> int:\n    return r(n + 1) + 1\n",
                                backend="llvm")
    assert cu2.r.backend == "llvm"
    cu2.r(0)


def test_argument_checks(cu):
    with pytest.raises(TypeError, match="'n'"):
        cu.fib(1.5)
    with pytest.raises(TypeError):
        cu.grow([1.5], 2)


def test_threads_agree(cu):
    results = {}

    def work(k):
        results[k] = [cu.fib(18), cu.build(1000), len(cu.nested(50))]
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({tuple(v) for v in results.values()}) == 1


def _rss_kb() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_no_leaks(cu):
    cu.build(10_000)
    before = _rss_kb()
    cu.build(5_000_000)          # 10^7 lists inside one call
    for _ in range(20_000):      # and many calls that build lists
        cu.nested(5)
    assert _rss_kb() - before < 50_000


def test_cache_hit_in_a_fresh_process(tmp_path):
    code = ("import ember, time\n"
            "src = 'def f(n: int) -> int:\\n    return n * 2 + 1\\n'\n"
            "cu = ember.CompilationUnit(src, backend='llvm')\n"
            "import sys\n"
            "print(cu.f.backend, cu._functions['f']._compiled.native.cached, cu.f(20),\n"
            "      'llvmlite.binding' in sys.modules, 'llvmlite.ir' in sys.modules)\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split()
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True).stdout.split()
    assert first[:3] == ["llvm", "False", "41"] and first[3:] == ["True", "True"]
    # a hit loads the object with ember's own loader: neither LLVM nor its IR builder
    assert second == ["llvm", "True", "41", "False", "False"]
    assert any(n.startswith("llvm-") for n in os.listdir(tmp_path / "ember"))


def test_the_cache_key_follows_the_exception_classes(monkeypatch):
    """Class codes index ember.ops' exception set, which lives outside ember.llvm's own
    source digest: a new class must miss the cache, not dispatch an old object's codes."""
    from ember.llvm import _exceptions_key
    from ember.ops import scalar_builtins

    before = _exceptions_key()
    monkeypatch.setitem(scalar_builtins.EXCEPTION_CLASSES, "EOFError", EOFError)
    assert _exceptions_key() != before and "EOFError<Exception" in _exceptions_key()


def test_unknown_backend_is_an_error():
    with pytest.raises(ember.errors.UnsupportedError, match="'vm', 'llvm'|vm, llvm"):
        ember.script(lambda x: x, backend="gpu")


def test_the_package_imports_no_frontend():
    code = ("import sys\nimport ember.llvm\n"
            "bad = [m for m in sys.modules if m.startswith(('ember.frontend', 'lark'))]\n"
            "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


TRY_SRC = """
from typing import List

def safe_get(xs: List[int], i: int) -> int:
    y = 0
    try:
        y = xs[i] // (i - 2)
    except IndexError:
        y = -1
    except ZeroDivisionError:
        y = -2
    else:
        y = y + 100
    finally:
        xs.append(y)
    return y

def guarded(x: int) -> int:
    try:
        if x > 5:
            raise ValueError("big")
        r = 10 // x
    except Exception:
        r = -1
    return r

def unmatched(x: int) -> int:
    try:
        r = 10 // x
    except IndexError:
        r = 0
    return r
"""


def test_try_except_natively():
    cu = ember.CompilationUnit(TRY_SRC, "try_test.py", backend="llvm")
    for name in ("safe_get", "guarded", "unmatched"):
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    xs = [5, 6, 7, 8]
    assert cu.safe_get(xs, 3) == 108 and xs[-1] == 108
    assert cu.safe_get(xs, 2) == -2 and xs[-1] == -2
    assert cu.safe_get(xs, 99) == -1 and xs[-1] == -1
    assert [cu.guarded(x) for x in (0, 2, 9)] == [-1, 5, -1]
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        cu.unmatched(0)


def test_exceptions_without_a_message_are_native():
    src = ("def f(x: int) -> int:\n"
           "    assert x != 1\n"
           "    if x == 2:\n"
           "        raise ValueError()\n"
           "    return x\n")
    cu = ember.CompilationUnit(src, "nomsg.py", backend="llvm")
    assert cu.f.backend == "llvm", cu.f.fallback_reason
    assert cu.f(5) == 5
    with pytest.raises(AssertionError) as e1:
        cu.f(1)
    with pytest.raises(ValueError) as e2:
        cu.f(2)
    assert str(e1.value) == "" and str(e2.value) == "" and e2.value.args == ()


def test_handlers_catch_what_a_callee_raises():
    """The class code a callee records reaches the caller's dispatch (fuzzer, seed 601)."""
    src = ("def g(x: int) -> int:\n"
           "    assert False, ''\n"
           "    return x\n"
           "def f(x: int) -> int:\n"
           "    try:\n"
           "        y = g(x)\n"
           "    except Exception as e:\n"
           "        return x + 1\n"
           "    return y\n"
           "def h(x: int) -> int:\n"
           "    try:\n"
           "        y = g(x)\n"
           "    except ValueError:\n"
           "        return -1\n"
           "    except Exception:\n"
           "        return -2\n"
           "    return y\n")
    cu = ember.CompilationUnit(src, "callee_raise.py", backend="llvm")
    assert cu.f.backend == "llvm" and cu.h.backend == "llvm"
    assert cu.f(360) == 361 and cu.h(1) == -2
