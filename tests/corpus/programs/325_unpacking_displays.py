from typing import Dict, List, Tuple


def lists(xs: List[int], s: str) -> List[List[int]]:
    a = [*xs, 0, *xs]
    b = [*range(3), *xs[:1], *[len(c) for c in s]]
    c = [*(x * x for x in xs if x > 1)]
    return [a, b, c]


def tuples(t: Tuple[int, str]) -> Tuple[int, str, int, int, str]:
    return (*t, 5, *t)


def chars(s: str) -> List[str]:
    return [*s, "|", *"xy", *sorted(s)]


def merged(d: Dict[str, int]) -> List[Dict[str, int]]:
    e = {**d, "z": 9}
    f = {"a": 0, **d, **{"b": 7}}
    return [e, f, {**d}]


def order(xs: List[int]) -> List[int]:
    out = [*xs, xs.pop(), *xs]
    return out


CASES = [("lists", ([1, 2], "ab")), ("lists", ([], "")), ("tuples", ((3, "q"),)),
         ("chars", ("hi",)), ("merged", ({"a": 1, "b": 2},)), ("merged", ({},)),
         ("order", ([1, 2, 3],))]
