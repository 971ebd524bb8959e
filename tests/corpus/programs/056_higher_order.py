from typing import Callable, List


def map_list(f: Callable[[int], int], xs: List[int]) -> List[int]:
    return [f(x) for x in xs]


def double(x: int) -> int:
    return 2 * x


def compose(n: int) -> List[int]:
    return map_list(double, map_list(lambda v: v + 1, list(range(n))))


def reduce_sum(xs: List[int], f: Callable[[int, int], int], init: int) -> int:
    acc = init
    for x in xs:
        acc = f(acc, x)
    return acc


def use_reduce(xs: List[int]) -> int:
    return reduce_sum(xs, lambda a, b: a * 10 + b, 0)


CASES = [("compose", (4,)), ("use_reduce", ([1, 2, 3],))]
