"""A small self-recursive function compiles with a twin (module._twin) that LLVM inlines
every other level: results, the recursion limit's exact depth, overflow errors and the
script traceback stay the VM's."""

from __future__ import annotations

import sys

import pytest

import ember

pytest.importorskip("llvmlite")

SRC = '''
def down(n: int) -> int:
    if n == 0:
        return 0
    return 1 + down(n - 1)
def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def grow(n: int) -> int:
    if n == 0:
        return 1
    return grow(n - 1) * 3
'''


def _outcome(f, *a):
    try:
        return ("ok", f(*a))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return (type(e).__name__, str(e))


@pytest.fixture(scope="module")
def pair():
    return ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)


def test_twins_compile_natively(pair):
    native, _ = pair
    for name in ("down", "fib", "grow"):
        assert getattr(native, name).backend == "llvm", getattr(native, name).fallback_reason
    from ember.llvm.module import plan_module

    sf = native.fib
    llvm_ir = plan_module(sf.module, [sf.entry], "p_").llvm_ir  # fib is its only function
    assert '@"p_f0t"(' in llvm_ir and 'call {i8, i64} @"p_f0t"' in llvm_ir


def test_the_recursion_limit_counts_every_level(pair):
    """Native depth counts script frames from 1 (the VM's also counts the caller's Python
    frames, so only far-off depths compare across engines)."""
    native, vm = pair
    limit = sys.getrecursionlimit()
    for n in (limit - 2, limit - 1):  # both parities: the twin's levels count too
        assert native.down(n) == n
    for n in (limit, limit + 1, 2 * limit):
        assert _outcome(native.down, n)[0] == "RecursionError", n
    for n in (10, 11, limit // 2):
        assert _outcome(native.down, n) == _outcome(vm.down, n), n
    assert _outcome(vm.down, 3 * limit)[0] == "RecursionError"  # (CPython's wording varies)


def test_values_and_overflow_are_the_vms(pair):
    native, vm = pair
    for n in range(0, 25):
        assert native.fib(n) == vm.fib(n)
    for n in range(0, 45):
        assert _outcome(native.grow, n) == _outcome(vm.grow, n), n


def test_traceback_names_each_frame(pair):
    native, _ = pair
    with pytest.raises(OverflowError) as ei:
        native.grow(44)
    note = "\n".join(ei.value.__notes__)
    assert note.count("in grow") >= 2


DEEP = r'''
import sys
import ember
from typing import List

def walk(n: int, xs: List[float], acc: float) -> float:
    if n == 0:
        return acc
    a = xs[n % len(xs)] * 1.5
    b = a + acc
    c = walk(n - 1, xs, b * 0.5)
    return c + a - b * 0.25

sys.setrecursionlimit(600_000)
f = ember.script(walk, backend="llvm")
print(f.backend, f(500_000, [1.0, 2.0, 3.0], 0.0), walk(500_000, [1.0, 2.0, 3.0], 0.0))
'''


def test_recursion_deeper_than_the_c_stack_runs_on_the_vm(tmp_path):
    """A raised recursion limit lets CPython recurse far deeper than native frames fit in
    the C stack: past STACK_BUDGET the call leaves for the VM (no segfault), with
    CPython's result."""
    import os
    import subprocess
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    script = tmp_path / "deep.py"
    script.write_text(DEEP)
    res = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    backend, got, want = res.stdout.split()
    assert backend == "llvm" and got == want
