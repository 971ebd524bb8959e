"""Sets natively (llvm/set_runtime.py, ops_set.py): CPython's table, operation for
operation. Random histories of every set operation on int, float and bool elements —
values that collide in small tables, equal hashes (-1 and -2), -0.0 and 0.0, sets grown
past resizes, identity cases (`a & a`, `a -= a`), the size heuristics of difference and
difference_update — give the same results and the same iteration order (list(s) after
every step) natively as on CPython's own set."""

from __future__ import annotations

import math
import random

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

POOLS = {
    "int": ["0", "1", "-1", "-2", "7", "8", "16", "24", "32", "64", "-64", "5", "13", "40",
            "2305843009213693951", "2305843009213693952", "-9223372036854775807 - 1",
            "9223372036854775807", "1 << 62", "4611686018427387903"],
    "float": ["0.0", "-0.0", "1.5", "-2.25", "1e300", "5e-324", "8.0", "16.0", "0.1",
              "3.0", "-7.5", "2305843009213693952.0", "1e-310", "123456.789"],
    "bool": ["True", "False"],
}
TYPES = {"int": "int", "float": "float", "bool": "bool"}
GROW = {"int": "i * {m} + {o}", "float": "i * {m}.5 + {o}", "bool": "i % 2 == {o} % 2"}


class Gen:
    def __init__(self, rng: random.Random, kind: str):
        self.r, self.kind = rng, kind
        self.pool = POOLS[kind]

    def elem(self) -> str:
        return self.r.choice(self.pool)

    def lst(self) -> str:
        return "[" + ", ".join(self.elem() for _ in range(self.r.randint(0, 6))) + "]"

    def var(self) -> str:
        return self.r.choice("abc")

    def step(self) -> list[str]:
        r, v, w, u = self.r, self.var(), self.var(), self.var()
        x = self.elem()
        choices = [
            [f"{v}.add({x})"], [f"{v}.discard({x})"],
            [f"if {x} in {v}:", f"    {v}.remove({x})"],
            [f"if len({v}) > 0:", f"    out.append([{v}.pop()])"],
            [f"{v}.clear()"] if r.random() < 0.2 else [f"{v}.add({x})"],
            [f"{v} = {w} | {u}"], [f"{v} = {w} & {u}"], [f"{v} = {w} - {u}"],
            [f"{v} = {w} ^ {u}"],
            [f"{v} = {w}.union({self.lst()})"], [f"{v} = {w}.intersection({self.lst()})"],
            [f"{v} = {w}.difference({self.lst()})"],
            [f"{v} = {w}.symmetric_difference({self.lst()})"],
            [f"{v} |= {w}"], [f"{v} &= {w}"], [f"{v} -= {w}"], [f"{v} ^= {w}"],
            [f"{v}.update({self.lst()})"], [f"{v}.intersection_update({self.lst()})"],
            [f"{v}.difference_update({self.lst()})"],
            [f"{v}.symmetric_difference_update({self.lst()})"],
            [f"{v} = {w}.copy()"], [f"{v} = set({self.lst()})"],
            [f"{v} = {{{', '.join(self.elem() for _ in range(r.randint(1, 5)))}}}"],
            [f"{v} = set(xs)"], [f"{v}.update(xs)"], [f"{v}.difference_update(xs)"],
            [f"for i in range({r.randint(1, 60)}):",
             f"    {v}.add({GROW[self.kind].format(m=r.choice([1, 8, 32, 3]), o=r.randint(-5, 9))})"],
            [f"for i in range({r.randint(1, 40)}):",
             f"    {v}.discard({GROW[self.kind].format(m=r.choice([1, 8]), o=r.randint(-5, 9))})"],
            [f"flags.append({w} <= {u})", f"flags.append({w} < {u})",
             f"flags.append({w} == {u})", f"flags.append({w} != {u})",
             f"flags.append({w} >= {u})", f"flags.append({w} > {u})",
             f"flags.append({w}.isdisjoint({u}))", f"flags.append({w}.issubset({self.lst()}))",
             f"flags.append({w}.issuperset({self.lst()}))",
             f"flags.append({w}.isdisjoint({self.lst()}))", f"flags.append({x} in {w})"],
        ]
        return r.choice(choices)

    def program(self, n: int) -> str:
        t = TYPES[self.kind]
        body = [f"a: Set[{t}] = set()", f"b: Set[{t}] = set(xs)", f"c: Set[{t}] = {{{self.elem()}}}",
                f"out: List[List[{t}]] = []", "flags: List[bool] = []"]
        for _ in range(n):
            body += self.step()
            body.append(f"out.append(list({self.var()}))")
        body.append("out.append(list(a))")
        body.append("out.append(list(b))")
        body.append("out.append(list(c))")
        body.append("return out, flags")
        lines = "\n".join("    " + ln for ln in body)
        return (f"from typing import List, Set, Tuple\n\n"
                f"def run(xs: List[{t}]) -> Tuple[List[List[{t}]], List[bool]]:\n{lines}\n")


def _args(rng, kind):
    vals = [eval(rng.choice(POOLS[kind])) for _ in range(rng.randint(0, 12))]  # noqa: S307
    return (vals,)


def _check(seed: int, kind: str, steps: int = 30):
    rng = random.Random(seed)
    src = Gen(rng, kind).program(steps)
    ns: dict = {}
    exec(compile(src, f"<sets {seed}>", "exec"), ns)  # noqa: S102 - the CPython oracle
    cu = ember.CompilationUnit(src, f"sets_{seed}.py", backend="llvm")
    assert cu.run.backend == "llvm", cu.run.fallback_reason
    for _ in range(3):
        a = _args(rng, kind)
        want, got = outcome(ns["run"], a), outcome(cu.run, a)
        assert _same(want, got), f"seed {seed} ({kind}):\n{src}\nargs {a}"


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or a != a and b != b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["int", "float", "bool"])
def test_random_histories(seed, kind):
    _check(seed * 7919 + {"int": 0, "float": 1, "bool": 2}[kind], kind)


SRC = '''
from typing import List, Set, Tuple

def grow(n: int) -> List[int]:
    s: Set[int] = set()
    for i in range(n):
        s.add(i * 37 % 1000)
    for i in range(0, n, 3):
        s.discard(i * 37 % 1000)
    return list(s)

def big_difference(n: int) -> Tuple[List[int], List[int]]:
    small = {1, 2, 3, 500}
    big = set(range(n))
    d = small - big
    small -= big
    return list(d), list(small)

def floats(xs: List[float]) -> List[float]:
    s = set(xs)
    s.add(-0.0)
    s.add(0.0)
    return list(s)

def nan_leaves(xs: List[float]) -> List[float]:
    s = set(xs)
    return list(s)

def pop_order(n: int) -> List[int]:
    s = set(range(n))
    out: List[int] = []
    s.discard(2)
    while len(s) > 0:
        out.append(s.pop())
        if len(out) % 3 == 0:
            s.add(len(out) * 11)
        if len(out) > 3 * n:
            break
    return out

def missing(xs: List[int], x: int) -> int:
    s = set(xs)
    s.remove(x)
    return len(s)

def empty_pop(xs: List[float]) -> float:
    s = set(xs)
    return s.pop()

def changed(xs: List[int]) -> int:
    s = set(xs)
    n = 0
    for v in s:
        n += v
        if v == 3:
            s.add(100)
    return n

def nested(n: int) -> List[List[int]]:
    groups: List[Set[int]] = []
    for i in range(n):
        groups.append({i, i * 2, i * 3})
    return [list(g) for g in groups]
'''

CASES = [
    ("grow", (10,)), ("grow", (300,)), ("grow", (5000,)),
    ("big_difference", (100,)), ("big_difference", (3,)),
    ("floats", ([1.0, -0.0, 2.5, 1.0],)), ("floats", ([],)),
    ("nan_leaves", ([1.0, float("nan"), 2.0],)), ("nan_leaves", ([1.0, 2.0],)),
    ("pop_order", (9,)), ("pop_order", (40,)), ("pop_order", (0,)),
    ("missing", ([1, 2, 3], 2)), ("missing", ([1, 2, 3], 7)),
    ("empty_pop", ([],)), ("empty_pop", ([2.5, -0.0],)),
    ("changed", ([1, 2],)), ("changed", ([1, 2, 3],)),
    ("nested", (5,)),
]


@pytest.fixture(scope="module")
def unit():
    return ember.CompilationUnit(SRC, "sets.py", backend="llvm")


@pytest.mark.parametrize("name, args", CASES)
def test_cases(unit, name, args):
    ns: dict = {}
    exec(compile(SRC, "sets.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    fn = getattr(unit, name)
    assert fn.backend == "llvm", fn.fallback_reason
    assert _same(outcome(ns[name], args), outcome(fn, args))


def test_set_parameters_stay_on_the_vm():
    cu = ember.CompilationUnit("from typing import Set\n\ndef f(s: Set[int]) -> int:\n"
                               "    return len(s)\n", "p.py", backend="llvm")
    assert cu.f.backend == "vm" and "set<i64>" in cu.f.fallback_reason
    assert cu.f({1, 2}) == 2



CHURN = '''
from typing import List
def churn(xs: List[int]) -> int:
    a = set(xs)
    b = {1, 2, 3, 4, 5}
    c = a | b
    c &= {1, 2, 99}
    d = a - b
    d -= a
    e = a ^ b
    e ^= b
    e.update([7, 8])
    e.intersection_update([7, 8, 9])
    e.difference_update(xs)
    f = a.union(xs).intersection(xs).difference([1]).symmetric_difference([2])
    s = sum(map(lambda v: v * 2, filter(lambda v: v > 1, iter(xs))))
    return len(c) + len(d) + len(e) + len(f) + s + int(a <= c) + int(3 in a)
'''


def test_no_leaks():
    """Every temporary set (and table) is freed: resident memory stays flat over 20,000
    calls that build and drop a dozen sets each (a generous bound)."""
    cu = ember.CompilationUnit(CHURN, "churn.py", backend="llvm")
    assert cu.churn.backend == "llvm", cu.churn.fallback_reason
    xs = list(range(300))

    def rss_kib():
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * 4
    for _ in range(2000):
        cu.churn(xs)
    before = rss_kib()
    for _ in range(20000):
        cu.churn(xs)
    assert rss_kib() - before < 8 * 1024
