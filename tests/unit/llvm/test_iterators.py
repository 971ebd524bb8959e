"""Iterator values natively (llvm/ops_iter.py): iter/next over lists and ranges, map,
filter, zip, enumerate and reversed as values, with CPython's laziness — list iterators
see appends and let go once exhausted, map and zip consume their inputs left to right up
to the first exhausted one, a function's exception comes from the step that calls it,
StopIteration escapes a function — identical to CPython; an iterator that escapes its
function keeps the function on the VM."""

from __future__ import annotations

import pytest

import ember

from .outcomes import outcome

pytest.importorskip("llvmlite")

SRC = '''
from typing import List, Tuple

def double(x: int) -> int:
    return 2 * x

def zip_consumes(a: List[int], b: List[int]) -> Tuple[List[Tuple[int, int]], List[int]]:
    ia = iter(a)
    pairs = list(zip(ia, b))
    return pairs, list(ia)

def zip_self(xs: List[int]) -> List[Tuple[int, int]]:
    it = iter(xs)
    z = zip(it, it)
    return list(z)

def zip_self_direct(xs: List[int]) -> List[Tuple[int, int]]:
    it = iter(xs)
    return list(zip(it, it))

def zip_loop_rest(xs: List[int], ys: List[int]) -> Tuple[List[int], List[int]]:
    it = iter(ys)
    out: List[int] = []
    for a, b in zip(xs, it):
        out.append(a * b)
    return out, list(it)

def map_raises(xs: List[int]) -> List[int]:
    out: List[int] = []
    for v in map(lambda x: 60 // x, xs):
        out.append(v)
    return out

def filter_raises(xs: List[int]) -> List[int]:
    return list(filter(lambda x: 10 // x > 2, xs))

def floats(xs: List[float]) -> Tuple[List[float], List[float], List[Tuple[int, float]]]:
    return (list(filter(None, xs)), list(map(lambda x: x * 0.5, xs)),
            list(enumerate(xs, -2)))

def nested(xs: List[int], ys: List[int]) -> List[int]:
    return list(map(lambda a, b: a - b, filter(lambda v: v % 2 == 0, map(double, xs)),
                    reversed(ys)))

def reversed_shrinks(xs: List[int]) -> List[int]:
    r = reversed(xs)
    out: List[int] = []
    for v in r:
        out.append(v)
        if len(xs) > 2:
            xs.pop()
            xs.pop()
    return out

def exhausted_forgets(xs: List[int]) -> Tuple[List[int], List[int]]:
    it = iter(xs)
    first = list(it)
    xs.append(7)
    return first, list(it)

def next_and_default(xs: List[int]) -> List[int]:
    it = iter(xs)
    out = [next(it, -1), next(it, -1), next(it, -1)]
    out.append(next(it))
    return out

def contains(xs: List[int], k: int) -> Tuple[bool, List[int]]:
    it = iter(xs)
    found = k in it
    return found, list(it)

def ranges(a: int, b: int, s: int) -> Tuple[List[int], List[int], int]:
    r = iter(range(a, b, s))
    first = next(r, 99)
    return list(r), list(reversed(range(a, b, s))), first

def in_loop(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        it = iter(range(i))
        out.append(sum(it))
        out.append(next(it, -5))
    return out

def bools(xs: List[bool]) -> List[int]:
    return list(map(lambda b: int(b) * 3, filter(None, xs)))

def escapes(xs: List[int]) -> int:
    its = [iter(xs), iter(xs[1:])]
    return next(its[1])
'''

CASES = [
    ("zip_consumes", ([1, 2, 3], [9])), ("zip_consumes", ([], [1])), ("zip_consumes", ([1], [])),
    ("zip_self", ([1, 2, 3, 4, 5],)), ("zip_self_direct", ([1, 2, 3, 4],)),
    ("zip_loop_rest", ([1, 2], [5, 6, 7])), ("zip_loop_rest", ([1, 2, 3], [5])),
    ("map_raises", ([1, 2, 0, 4],)), ("map_raises", ([3, 4],)),
    ("filter_raises", ([1, 2, 5, 0],)), ("filter_raises", ([2, 3, 1],)),
    ("floats", ([0.0, -0.0, 1.5, -2.5, float("nan"), float("inf")],)),
    ("nested", ([1, 2, 3, 4, 5], [10, 20])), ("nested", ([], [1])),
    ("reversed_shrinks", ([1, 2, 3, 4, 5, 6, 7],)), ("reversed_shrinks", ([],)),
    ("exhausted_forgets", ([1, 2],)),
    ("next_and_default", ([1, 2, 3, 4],)), ("next_and_default", ([1],)),
    ("contains", ([1, 2, 3, 4], 2)), ("contains", ([1, 2], 5)),
    ("ranges", (0, 10, 3)), ("ranges", (10, -3, -4)), ("ranges", (5, 5, 1)),
    ("ranges", (0, 5, 0)), ("ranges", (-9223372036854775807 - 1, 9223372036854775807,
                                       4611686018427387904)),
    ("in_loop", (5,)), ("bools", ([True, False, True],)),
]


@pytest.fixture(scope="module")
def unit():
    src = "from typing import Iterator\n" + SRC
    ns: dict = {}
    exec(compile(src, "iters.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    return ember.CompilationUnit(src, "iters.py", backend="llvm"), ns


@pytest.mark.parametrize("name, args", CASES)
def test_cases(unit, name, args):
    cu, ns = unit
    fn = getattr(cu, name)
    assert fn.backend == "llvm", fn.fallback_reason
    assert repr(outcome(fn, args)) == repr(outcome(ns[name], args))


@pytest.mark.parametrize("name, args", CASES)
def test_cases_vm(name, args):
    src = "from typing import Iterator\n" + SRC
    ns: dict = {}
    exec(compile(src, "iters.py", "exec"), ns)  # noqa: S102 - the CPython oracle
    fn = getattr(_vm_unit(src), name)
    assert repr(outcome(fn, args)) == repr(outcome(ns[name], args))


_VM: dict = {}


def _vm_unit(src):
    if src not in _VM:
        _VM[src] = ember.CompilationUnit(src, "iters.py")
    return _VM[src]


def test_escaping_iterator_stays_on_the_vm(unit):
    cu, ns = unit
    assert cu.escapes.backend == "vm" and "iter" in cu.escapes.fallback_reason
    assert cu.escapes([4, 5]) == 5


class Gen:
    """Random programs composing iterators: nested map/filter/zip/enumerate/reversed over
    lists and ranges, next with and without defaults, `in`, partial loops that break and
    resume, lambdas that can raise (a division by an element)."""

    LAMBDAS = ["lambda v: v + 1", "lambda v: v * 3 - 7", "lambda v: 100 // v",
               "lambda v: v % 5", "double"]
    PREDS = ["lambda v: v % 2 == 0", "lambda v: v > 2", "lambda v: 12 // v > 3", "None"]

    def __init__(self, rng):
        self.r = rng
        self.n = 0

    def source(self, depth=0) -> str:
        r = self.r
        leaves = ["xs", "ys", f"range({r.randint(-3, 3)}, {r.randint(-2, 9)}, "
                              f"{r.choice([1, 2, 3, -1, -2])})", "iter(xs)"]
        if depth > 2 or r.random() < 0.3:
            return r.choice(leaves)
        k = r.randint(0, 4)
        inner = self.source(depth + 1)
        if k == 0:
            return f"map({r.choice(self.LAMBDAS)}, {inner})"
        if k == 1:
            return f"filter({r.choice(self.PREDS)}, {inner})"
        if k == 2:
            return f"map(lambda a, b: a - b, {inner}, {self.source(depth + 1)})"
        if k == 3:
            return f"map(lambda p: p[0] * p[1], enumerate({inner}, {r.randint(-2, 2)}))"
        return f"reversed({r.choice(['xs', 'ys'])})"

    def step(self) -> list:
        r = self.r
        self.n += 1
        it = f"it{r.randint(0, 2)}"
        return r.choice([
            [f"{it} = iter({self.source()})"],
            [f"out.append(next({it}, -99))"],
            [f"out.append(int({r.randint(-3, 9)} in {it}))"],
            [f"for v{self.n} in {it}:", f"    out.append(v{self.n})",
             f"    if v{self.n} % {r.randint(2, 4)} == 0:", "        break"],
            [f"xs.append({r.randint(-5, 9)})"],
            [f"if len(xs) > 0:", "    xs.pop()"],
            [f"out.append(sum({it}))"],
        ])

    def program(self, steps: int) -> str:
        body = ["out: List[int] = []", "it0 = iter(xs)", "it1 = iter(ys)", "it2 = iter(range(4))"]
        for _ in range(steps):
            body += self.step()
        body.append("return out")
        lines = "\n".join("    " + ln for ln in body)
        return ("from typing import List\n\ndef double(x: int) -> int:\n    return 2 * x\n\n"
                f"def run(xs: List[int], ys: List[int]) -> List[int]:\n{lines}\n")


def check_random(seed: int, steps: int = 12) -> None:
    import random
    rng = random.Random(seed)
    src = Gen(rng).program(steps)
    ns: dict = {}
    exec(compile(src, f"<iters {seed}>", "exec"), ns)  # noqa: S102 - the CPython oracle
    cu = ember.CompilationUnit(src, f"iters_{seed}.py", backend="llvm")
    for _ in range(3):
        a = ([rng.randint(-3, 9) for _ in range(rng.randint(0, 7))],
             [rng.randint(-3, 9) for _ in range(rng.randint(0, 7))])
        assert repr(outcome(cu.run, a)) == repr(outcome(ns["run"], a)), f"seed {seed}:\n{src}"
    return cu.run.backend


@pytest.mark.parametrize("seed", range(10))
def test_random_programs(seed):
    check_random(seed)
