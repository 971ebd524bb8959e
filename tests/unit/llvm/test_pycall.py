"""The builtin fast path of scalar entries (llvm/pycall.py, pyentry.py): CPython calls the
native code directly; every other case reaches the boundary's own path, with the VM's
results, exceptions and messages."""

import gc
import math
import sys
import threading
import time
import traceback

import pytest

import ember
from ember.llvm import pyentry

pytestmark = pytest.mark.skipif(not pyentry.available(), reason="no CPython C-API here")

SRC = '''
from typing import List
def div(a: int, b: int) -> int:
    return a // b
def scale(x: float, twice: bool) -> float:
    if twice:
        return x * 2.0
    return 1.0 / x
def big(a: int) -> bool:
    return a * a > 10
def nothing(a: int, b: float) -> None:
    a // 2
def uniq(x: float) -> int:
    s = {x, 1.0, 2.0}
    return len(s) + int(x > 0.0)
def total(xs: List[int]) -> int:
    return sum(xs)
'''


@pytest.fixture(scope="module")
def cus():
    return ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)


def _outcome(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
        return ("ok", type(r), repr(r))
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return ("raised", type(e), str(e))


def test_scalar_entries_are_builtins_and_list_entries_are_not(cus):
    native, _ = cus
    for name in ("div", "scale", "big", "nothing", "uniq"):
        f = getattr(native, name)
        assert f.backend == "llvm", f.fallback_reason
        assert type(f._fn).__name__ == "builtin_function_or_method", name
    assert native.total.backend == "llvm"
    assert type(native.total._fn).__name__ != "builtin_function_or_method"


CASES = {
    "div": [(7, 2), (-7, 2), (7, 0), (2**63 - 1, 1), (-2**63, -1), (2**63, 1), (True, 1),
            (1.0, 1), (1,), (1, 2, 3), ("a", 1)],
    "scale": [(1.5, True), (2.0, False), (0.0, False), (-0.0, False), (3, True), (1.0, 1),
              (math.nan, False), (math.inf, True)],
    "big": [(3,), (4,), (3037000500,), (-5,)],
    "nothing": [(1, 2.0), (1, 2)],
    "uniq": [(1.0,), (3.0,), (math.nan,), (-0.0,)],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_results_and_errors_are_the_vms(cus, name):
    native, vm = cus
    for args in CASES[name]:
        assert _outcome(getattr(native, name), *args) == _outcome(getattr(vm, name), *args), \
            (name, args)


def test_keywords_reach_the_boundary(cus):
    native, vm = cus
    for kwargs in ({"a": 9, "b": 2}, {"b": 2, "a": 9}, {"a": 9}, {"a": 9, "c": 1}):
        assert _outcome(native.div, **kwargs) == _outcome(vm.div, **kwargs), kwargs
    assert native.div(9, b=4) == 2


def test_an_error_keeps_the_script_traceback(cus):
    native, _ = cus
    with pytest.raises(ZeroDivisionError) as info:
        native.div(1, 0)
    assert [(fr.name, fr.lineno) for fr in traceback.extract_tb(info.tb)][-1] == ("div", 4)
    assert "return a // b" in info.value.__notes__[-1]


def test_a_deopt_runs_the_call_once_on_the_vm(cus, monkeypatch):
    from ember.llvm import boundary

    native, _ = cus
    seen = []
    real = boundary.NativeFunction._deopt

    def counting(self, ctx):
        seen.append(real(self, ctx))
        return seen[-1]
    monkeypatch.setattr(boundary.NativeFunction, "_deopt", counting)
    assert native.uniq(3.0) == 4 and seen == []
    assert native.uniq(math.nan) == 3 and seen == [True]


def test_no_reference_is_leaked_or_stolen(cus):
    native, _ = cus
    a, x = 10**12 + 7, 123.25
    before = sys.getrefcount(a), sys.getrefcount(x)
    for _ in range(2000):
        native.div(a, 3)
        native.scale(x, True)
        native.big(7)
        native.nothing(a, x)
        try:
            native.div(a, 0)
        except ZeroDivisionError:
            pass
    gc.collect()  # (an exception's traceback and frames form cycles)
    assert (sys.getrefcount(a), sys.getrefcount(x)) == before[:2]


def test_bool_and_none_results_hold_their_reference(cus):
    native, _ = cus
    counts = sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)
    for _ in range(5000):
        native.big(7)
        native.big(1)
        native.nothing(1, 2.0)
    after = sys.getrefcount(True), sys.getrefcount(False), sys.getrefcount(None)
    assert all(abs(p - q) < 100 for p, q in zip(counts, after)), (counts, after)


SPIN = '''
def spin(n: int) -> int:
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s
'''


def test_the_gil_is_released_during_the_native_call():
    spin = ember.CompilationUnit(SPIN, backend="llvm").spin
    assert type(spin._fn).__name__ == "builtin_function_or_method"
    n = 1000
    while True:  # a call long enough to look inside
        t0 = time.perf_counter()
        spin(n)
        if time.perf_counter() - t0 > 0.2 or n > 10**10:
            break
        n *= 4
    window, ticks = [], []

    def run():
        window.append(time.perf_counter())
        spin(n)
        window.append(time.perf_counter())
    t = threading.Thread(target=run)
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    t.join()
    lo, hi = window[0] + 0.05, window[1] - 0.05
    assert any(lo < tick < hi for tick in ticks), "no Python ran during the native call"


TWO = '''
def f(a: int, b: int) -> int:
    return a - b
def g(a: int, b: int) -> int:
    return a * b
'''


def test_one_body_serves_every_signature(cus):
    native, _ = cus
    two = ember.CompilationUnit(TWO, backend="llvm")
    fns = (two.f, two.g, native.div, native.scale, native.big, native.nothing)
    assert len({id(fn._fn.__self__.keep[3]) for fn in fns}) == 1
    assert two.f(7, 2) == 5 and two.g(7, 2) == 14


MIXED = '''
def mixed(a: bool, b: int, c: float, d: bool, e: int, f: float, g: bool) -> float:
    return (c - f) * (b + e) + (1.0 if a else 0.0) + (2.0 if d else 0.0) + (4.0 if g else 0.0)
def seventeen(a: int, b: int, c: int, d: int, e: int, f: int, g: int, h: int, i: int,
              j: int, k: int, l: int, m: int, n: int, o: int, p: int, q: int) -> int:
    return a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q
'''


def test_argument_blocks_of_mixed_kinds_and_too_many_parameters():
    native, vm = ember.CompilationUnit(MIXED, backend="llvm"), ember.CompilationUnit(MIXED)
    assert type(native.mixed._fn).__name__ == "builtin_function_or_method"
    for args in ((True, 3, 2.5, False, -4, 0.25, True), (False, 2**62, -0.0, True, 7, 1e300,
                                                        False)):
        assert _outcome(native.mixed, *args) == _outcome(vm.mixed, *args)
    assert native.seventeen.backend == "llvm"
    assert type(native.seventeen._fn).__name__ != "builtin_function_or_method"  # (ctypes)
    assert native.seventeen(*range(17)) == sum(range(17))


def test_a_cache_hit_in_a_fresh_process_gets_the_builtin(tmp_path):
    import os
    import subprocess

    code = ("import ember, sys\n"
            "cu = ember.CompilationUnit('def h(x: float) -> float:\\n    return x / 4.0\\n',"
            " backend='llvm')\n"
            "print(type(cu.h._fn).__name__, cu.h(2.0), 'llvmlite.ir' in sys.modules)\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    assert runs[0] == ["builtin_function_or_method", "0.5", "True"]
    assert runs[1] == ["builtin_function_or_method", "0.5", "False"]


def test_the_vm_program_is_loaded_only_when_a_call_needs_it():
    cu = ember.CompilationUnit(TWO, backend="llvm")
    compiled = cu.f._compiled
    assert cu.f(5, 3) == 2 and cu.g(5, 3) == 15
    assert compiled._loaded is None  # native calls with checked arguments: no VM
    with pytest.raises(ember.errors.CallError):
        cu.f(5.0, 3)  # the VM entry's checks give the message
    assert compiled._loaded is not None
