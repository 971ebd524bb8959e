from typing import Tuple


def range_values(n: int, i: int) -> Tuple[int, int, int, int]:
    return len(range(n)), len(range(0, n, 3)), len(range(n, 0, -2)), range(1, n + 5, 2)[i]


def repeat(a: int, s: str) -> Tuple[int, str, int, str, int, str]:
    t = (a, s)
    return t * 3


CASES = [("range_values", (7, 2)), ("range_values", (0, -1)), ("range_values", (2, 9)),
         ("repeat", (1, "x"))]
