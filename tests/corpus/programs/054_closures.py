from typing import Callable, List


def make_adder(n: int) -> int:
    def add(x: int) -> int:
        return x + n
    return add(10) + add(20)


def counter_list(k: int) -> List[int]:
    scale = k * 2
    offset = 1

    def transform(v: int) -> int:
        return v * scale + offset
    return [transform(i) for i in range(4)]


def apply_twice(f: Callable[[int], int], x: int) -> int:
    return f(f(x))


def use_apply(n: int) -> int:
    base = 3

    def inc(x: int) -> int:
        return x + base
    return apply_twice(inc, n)


CASES = [("make_adder", (5,)), ("counter_list", (3,)), ("use_apply", (1,))]
