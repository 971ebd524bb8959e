"""User classes and NamedTuples: fields, methods, constants, special methods, sorting —
compiled results must equal CPython's."""

from __future__ import annotations

import pytest

import ember
from ember import errors
from ember.frontend import compile_source
from tests.e2e.corpus import outcome, same_outcome

SRC = '''
from typing import List, NamedTuple, Optional

class V:
    ORIGIN = 0
    def __init__(self, x: int, y: int = 0):
        self.x = x
        self.y = y
    def __add__(self, o: "V") -> "V":
        return V(self.x + o.x, self.y + o.y)
    def __iadd__(self, o: "V") -> "V":
        self.x += o.x
        self.y += o.y
        return self
    def __neg__(self) -> "V":
        return V(-self.x, -self.y)
    def __eq__(self, o: "V") -> bool:
        return self.x == o.x and self.y == o.y
    def __lt__(self, o: "V") -> bool:
        return self.x < o.x
    def __str__(self) -> str:
        return f"V({self.x}, {self.y})"
    def __len__(self) -> int:
        return abs(self.x) + abs(self.y)
    def __getitem__(self, i: int) -> int:
        return self.x if i == 0 else self.y
    def __setitem__(self, i: int, v: int) -> None:
        if i == 0:
            self.x = v
        else:
            self.y = v
    def __contains__(self, v: int) -> bool:
        return v == self.x or v == self.y
    @staticmethod
    def unit() -> "V":
        return V(1, 1)

class Node:
    def __init__(self, val: int):
        self.val = val
        self.next: Optional[Node] = None

class P(NamedTuple):
    name: str
    score: float = 0.0

def ops(a: int, b: int) -> List[str]:
    v = V(a, b) + V.unit()
    w = v
    w += V(10)
    v[1] = 7
    return [str(v), str(w is v), str(v == V(a + 11, 7)), str(v != V(0)), str(-v),
            str(len(v)), str(v[1]), str(7 in v), str(bool(V(0, 0))), f"{v}", "{}".format(v),
            str(V.ORIGIN + v.ORIGIN)]

def linked(n: int) -> int:
    head = Node(0)
    cur = head
    for i in range(1, n):
        nxt = Node(i)
        cur.next = nxt
        cur = nxt
    total = 0
    p: Optional[Node] = head
    while p is not None:
        total += p.val
        p = p.next
    return total

def sorting(xs: List[int]) -> List[str]:
    vs = [V(x, i) for i, x in enumerate(xs)]
    out = [str(v) for v in sorted(vs)] + [str(v) for v in sorted(vs, reverse=True)]
    vs.sort()
    return out + [str(vs[0]), str(min(vs)), str(max(vs))]

def records(n: int) -> List[str]:
    ps = [P("a", 2.0), P("b"), P(name="c", score=float(n))]
    best = max(ps, key=lambda p: p.score)
    name, score = best
    return [best.name, str(score), ps[1][0], str(ps[1].score), name]
'''

CASES = [("ops", (2, 3)), ("linked", (5,)), ("sorting", ([3, 1, 3, 2, 1],)),
         ("sorting", ([],)), ("records", (1,)), ("records", (9,))]


@pytest.fixture(scope="module")
def unit():
    return ember.CompilationUnit(SRC, filename="classes_test.py")


@pytest.fixture(scope="module")
def python():
    ns: dict = {}
    exec(compile(SRC, "classes_test.py", "exec"), ns)
    return ns


@pytest.mark.parametrize("entry, args", CASES, ids=[f"{e}{i}" for i, (e, _) in
                                                     enumerate(CASES)])
def test_like_cpython(unit, python, entry, args):
    want = outcome(python[entry], args)
    got = outcome(getattr(unit, entry), args)
    assert same_outcome(want, got), (got, want)


def test_sorting_objects_without_lt():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source("from typing import List\nclass A:\n    def __init__(self):\n"
                       "        self.v = 1\ndef f(xs: List[A]) -> List[A]:\n"
                       "    return sorted(xs)\n")
    assert ei.value.line == 6 and "__lt__" in ei.value.message


def test_in_on_a_list_of_objects_uses_eq():
    unit = ember.CompilationUnit(SRC + "def f(x: int) -> bool:\n"
                                 "    return V(x, 1) in [V(0), V(x, 1)]\n")
    assert unit.f(2) is True


def test_format_spec_on_an_object():
    with pytest.raises(errors.TypeCheckError) as ei:
        compile_source(SRC + "def f(v: V) -> str:\n    return f'{v:>10}'\n")
    assert "__format__" in ei.value.message
