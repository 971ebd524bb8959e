from typing import List


def cut(n: int) -> List[List[int]]:
    xs = list(range(n))
    ys = xs
    del xs[1:3]
    a = list(range(n))
    del a[::2]
    b = list(range(n))
    del b[-2:]
    c = list(range(n))
    del c[:]
    d = list(range(n))
    del d[5:1]
    return [ys, a, b, c, d]


def zero_step(n: int) -> List[int]:
    xs = list(range(n))
    del xs[::0]
    return xs


CASES = [("cut", (8,)), ("cut", (0,)), ("zero_step", (3,))]
