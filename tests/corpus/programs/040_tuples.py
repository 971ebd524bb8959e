from typing import List, Tuple


def swap(a: int, b: int) -> Tuple[int, int]:
    a, b = b, a
    return a, b


def minmax(xs: List[int]) -> Tuple[int, int]:
    lo = xs[0]
    hi = xs[0]
    for x in xs:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
    return lo, hi


def nested(t: Tuple[int, Tuple[str, float]]) -> str:
    n, (s, f) = t
    return s * n + str(f)


def tuple_ops(a: Tuple[int, int, int]) -> tuple:
    return (a[0], a[-1], a[1:], a + (4,), len(a), a == (1, 2, 3), 2 in a, a < (1, 2, 4))


CASES = [("swap", (1, 2)), ("minmax", ([3, -1, 7, 2],)), ("nested", ((2, ("ab", 1.5)),)),
         ("tuple_ops", ((1, 2, 3),))]
