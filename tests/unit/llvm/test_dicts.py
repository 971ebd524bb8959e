"""Native dicts (int and bool keys) against the VM on random inputs: insertion order,
growth, deletion, pop, get, setdefault, items/keys/values, KeyError, and the error for a
dict that changes size while a loop iterates over it."""

from __future__ import annotations

import copy
import random

import pytest

import ember

pytest.importorskip("llvmlite")
src = '''
from typing import Dict, List, Tuple, Optional
def build(n: int) -> List[int]:
    d: Dict[int, int] = {}
    for i in range(n):
        d[i % 7] = d.get(i % 7, 0) + i
    out: List[int] = []
    for k in d:
        out.append(k * 1000 + d[k])
    return out
def ops(xs: List[int], ks: List[int]) -> List[int]:
    d: Dict[int, List[int]] = {}
    for x in xs:
        if x not in d:
            d[x] = []
        d[x].append(x)
    out: List[int] = [len(d)]
    for k in ks:
        if k in d:
            out.append(len(d.pop(k)))
        out.append(d.pop(k + 100, [9]) [0] if k % 2 == 0 else -1)
    for k, v in d.items():
        out.append(k + sum(v))
    out.extend(d.keys())
    d.clear()
    out.append(len(d))
    return out
def missing(k: int) -> int:
    d = {1: 2, 3: 4}
    return d[k]
def deleting(xs: List[int]) -> List[int]:
    d: Dict[int, int] = {}
    for i, x in enumerate(xs):
        d[x] = i
        if x % 3 == 0 and x in d:
            del d[x]
    r = [k for k in d.keys()] + [v for v in d.values()]
    return r
def opt(k: int) -> int:
    d = {1: 5, 2: 6}
    v = d.get(k)
    s = d.setdefault(k, 7)
    return (v if v is not None else -1) + s + len(d)
def changed(n: int) -> int:
    d = {1: 1, 2: 2}
    for k in d:
        if n > 0:
            d[k + 10] = 0
    return len(d)
'''


def _outcome(f, args):
    try:
        return ("ok", f(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("err", type(e).__name__, str(e))


def test_dicts_agree_with_the_vm():
    cu = ember.CompilationUnit(src, backend="llvm")
    vm = ember.CompilationUnit(src)
    names = ("build", "ops", "missing", "deleting", "opt", "changed")
    for name in names:
        assert getattr(cu, name).backend == "llvm", getattr(cu, name).fallback_reason
    rnd = random.Random(3)
    cases = []
    for _ in range(150):
        xs = [rnd.randint(-20, 20) for _ in range(rnd.randint(0, 40))]
        ks = [rnd.randint(-20, 20) for _ in range(rnd.randint(0, 10))]
        cases += [("build", (rnd.randint(0, 50),)), ("ops", (xs, ks)),
                  ("missing", (rnd.randint(0, 4),)), ("deleting", (xs,)),
                  ("opt", (rnd.randint(0, 3),)), ("changed", (rnd.randint(-1, 1),))]
    for name, args in cases:
        want, got = _outcome(getattr(vm, name), args), _outcome(getattr(cu, name), args)
        assert repr(want) == repr(got), (name, args, want, got)
