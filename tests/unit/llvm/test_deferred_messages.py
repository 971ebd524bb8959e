"""Exception messages built from numbers stay native (llvm/ops_dstr.py): the message is
computed at the raise from the recorded operands, with the VM's kernels — the same text as
the VM's for every value, after a cache round trip too."""

import math
import os
import random
import subprocess
import sys

import pytest

import ember

SRC = '''
from typing import List
def checked(n: int) -> int:
    assert n < 10, f"{n} is too big"
    return n * 2
def concat(n: int, flag: bool) -> int:
    if n < 0:
        raise ValueError("negative: " + str(n) + " / " + str(flag))
    return n
def floats(x: float, k: int) -> float:
    if x > 1.0 or x != x:
        raise RuntimeError(f"x={x!r} y={x / 3.0} {x:e}|{k:>6}|{x:.3f}")
    return x
def specs(n: int, x: float) -> int:
    if n > 3:
        raise ValueError(f"{n:x} {n:#o} {n:+d} {x:%} {x:g}")
    return n
def caught(n: int) -> int:
    try:
        if n > 2:
            raise KeyError("k" + str(n))
        return n
    except KeyError:
        return -1
def in_loop(xs: List[int]) -> int:
    for x in xs:
        if x < 0:
            raise IndexError(f"bad item {x} of {len(xs)}")
    return len(xs)
def reprs(b: bool, n: int) -> int:
    if n == 0:
        raise ZeroDivisionError(repr(b) + repr(n) + str(1.5))
    return 10 // n
def argument(n: int, x: float, b: bool) -> int:
    if n > 2:
        raise KeyError(n)
    if x > 2.0:
        raise ValueError(x) from None
    if b:
        raise IndexError(b)
    return n
'''
REFUSED = '''
def five(a: int, b: int, c: int, d: int, e: int) -> int:
    if a > 0:
        raise ValueError(f"{a} {b} {c} {d} {e}")
    return 0
def char(n: int) -> int:
    if n > 0:
        raise ValueError(f"{n:c}")
    return 0
def used(n: int) -> int:
    s = str(n)
    print(s)
    return n
'''


@pytest.fixture(scope="module")
def cus():
    return ember.CompilationUnit(SRC, backend="llvm"), ember.CompilationUnit(SRC)


def _outcome(f, *args):
    try:
        r = f(*args)
        return ("ok", type(r), repr(r))
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return ("raised", type(e), str(e), repr(e.args), e.__suppress_context__)


def _ints(rng):
    return [0, 1, -1, 9, 10, 2**62, -2**63, 2**63 - 1] + [rng.randrange(-2**63, 2**63)
                                                          for _ in range(20)]


def _floats(rng):
    return [0.0, -0.0, 1.0, 1.5, math.inf, -math.inf, math.nan, 1e300, 5e-324, 2.0 ** 60] + \
        [rng.uniform(-1e6, 1e6) for _ in range(10)] + \
        [math.ldexp(rng.random(), rng.randrange(-1070, 1020)) for _ in range(10)]


def test_every_function_is_native(cus):
    native, _ = cus
    for name in ("checked", "concat", "floats", "specs", "caught", "in_loop", "reprs",
                 "argument"):
        f = getattr(native, name)
        assert f.backend == "llvm", (name, f.fallback_reason)


def test_messages_are_the_vms(cus):
    native, vm = cus
    rng = random.Random(7)
    ints, floats = _ints(rng), _floats(rng)
    calls = [("checked", (n,)) for n in ints] + \
        [("concat", (n, b)) for n in ints for b in (True, False)] + \
        [("floats", (x, n)) for x in floats for n in ints[:4]] + \
        [("specs", (n, x)) for n in ints for x in floats[:6]] + \
        [("caught", (n,)) for n in ints] + \
        [("in_loop", ([1, n, 2],)) for n in ints] + \
        [("reprs", (b, n)) for b in (True, False) for n in (0, 3)] + \
        [("argument", (n, x, b)) for n in ints[:6] for x in floats[:8] for b in (True, False)]
    for name, args in calls:
        want = _outcome(getattr(vm, name), *args)
        got = _outcome(getattr(native, name), *args)
        assert got == want or ("nan" in want[2] and got[:2] == want[:2]), (name, args, got)


def test_the_script_traceback_names_the_raise(cus):
    native, _ = cus
    with pytest.raises(AssertionError) as info:
        native.checked(12)
    assert str(info.value) == "12 is too big"
    assert 'assert n < 10, f"{n} is too big"' in info.value.__notes__[-1]


def test_what_cannot_be_deferred_stays_on_the_vm():
    cu = ember.CompilationUnit(REFUSED, backend="llvm")
    assert "more than 4 values" in cu.five.fallback_reason
    assert "spec 'c'" in cu.char.fallback_reason
    assert cu.used.backend == "vm"
    for f, args, want in ((cu.five, (1, 2, 3, 4, 5), "1 2 3 4 5"), (cu.char, (65,), "A")):
        with pytest.raises(ValueError) as info:
            f(*args)
        assert str(info.value) == want


def test_a_cached_site_gives_the_same_message(tmp_path):
    code = ("import ember\n"
            f"cu = ember.CompilationUnit({SRC!r}, backend='llvm')\n"
            "for args in ((-5, True), (-2**63, False)):\n"
            "    try:\n"
            "        cu.concat(*args)\n"
            "    except ValueError as e:\n"
            "        print(cu.concat._compiled.native.cached, e)\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.splitlines() for _ in range(2)]
    assert runs[0] == ["False negative: -5 / True",
                       "False negative: -9223372036854775808 / False"]
    assert runs[1] == [line.replace("False", "True", 1) for line in runs[0]]
