from typing import Callable, Dict, List


def apply(f: Callable[[int], int], x: int) -> int:
    return f(x)


def keys(xs: List[int], k: int) -> List[int]:
    neg = lambda v: -v * k
    return sorted(xs, key=neg) + [apply(neg, 3), neg(4), max(xs, key=neg), min(xs, key=neg)]


def stored(a: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    g = lambda v: v + a
    fs.append(g)
    fs.append(lambda v: v * 2)
    fs.insert(0, g)
    d: Dict[str, Callable[[int], int]] = {}
    d["g"] = g
    d["h"] = lambda v: v - a
    return [h(3) for h in fs] + [d["g"](1), d["h"](1)]


def make(k: int) -> Callable[[int], int]:
    g = lambda x: x + k
    return g


def returned(a: int) -> int:
    return make(a)(10)


CASES = [("keys", ([3, 1, 2], 2)), ("stored", (5,)), ("returned", (4,))]
