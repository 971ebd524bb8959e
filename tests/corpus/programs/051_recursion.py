from typing import List


def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def power_set_count(xs: List[int], i: int) -> int:
    if i == len(xs):
        return 1
    return power_set_count(xs, i + 1) * 2


def depth(n: int) -> int:
    if n == 0:
        return 0
    return 1 + depth(n - 1)


CASES = [("fact", (10,)), ("fact", (0,)), ("fib", (15,)), ("power_set_count", ([1, 2, 3], 0)),
         ("depth", (150,))]
