from collections import OrderedDict
from typing import Dict, List, NamedTuple, Optional


class Record(NamedTuple):
    a: int
    b: float
    c: List[int]
    d: Optional[Dict[str, int]]


def fields(a: int, b: float, c: List[int]) -> int:
    r = Record(a, b, c, None)
    total = r.a + len(r.c)
    if r.d is None:
        total += 100
    return total


def sliced(a: int, b: float, c: List[int]):
    r = Record(a, b, c, {"k": 1})
    first, second, third, fourth = r
    return r[:2], r[1:], r[::2], first, third


def by_keywords(n: int) -> List[int]:
    r = Record(c=[n, n + 1], b=1.5, a=n, d={"x": n})
    return r.c + [r.a]


def ordered(pairs: List[List[int]]) -> List[List[int]]:
    d: Dict[int, int] = OrderedDict()
    for p in pairs:
        d[p[0]] = p[1]
    e = OrderedDict([(1, 2), (2, 3), (1, 4)])
    return [list(d.keys()), list(d.values()), list(e.keys()), list(e.values())]


CASES = [
    ("fields", (3, 3.5, [6])),
    ("sliced", (3, 3.5, [6])),
    ("by_keywords", (4,)),
    ("ordered", ([[3, 1], [1, 2], [3, 5]],)),
]
