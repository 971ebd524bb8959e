from typing import List


def replace(xs: List[int], ys: List[int], a: int, b: int) -> List[int]:
    alias = xs
    xs[a:b] = ys
    return alias


def grow_and_shrink(n: int) -> List[List[int]]:
    a = list(range(n))
    a[1:2] = [10, 11, 12]
    b = list(range(n))
    b[:] = []
    c = list(range(n))
    c[-2:] = [7]
    d = list(range(n))
    d[:0] = d
    return [a, b, c, d]


def extended(xs: List[float], ys: List[float]) -> List[float]:
    xs[::2] = ys
    return xs


def extended_negative(xs: List[str]) -> List[str]:
    xs[::-1] = ["x"] * len(xs)
    xs[4:0:-2] = ["y", "z"]
    return xs


CASES = [
    ("replace", ([1, 2, 3, 4], [8, 9], 1, 3)),
    ("replace", ([1, 2, 3], [], 0, 2)),
    ("replace", ([1, 2, 3], [5, 6, 7, 8], 2, 1)),
    ("replace", ([1, 2, 3], [5], -10, 10)),
    ("grow_and_shrink", (4,)),
    ("grow_and_shrink", (0,)),
    ("extended", ([1.0, 2.0, 3.0, 4.0], [0.5, 0.25])),
    ("extended", ([1.0, 2.0, 3.0], [0.5])),
    ("extended_negative", (["a", "b", "c", "d", "e"],)),
    ("extended_negative", (["a", "b"],)),
]
