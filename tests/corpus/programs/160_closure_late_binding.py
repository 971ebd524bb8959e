from typing import Callable, List


def called_late(x: int) -> List[int]:
    k = 1

    def g(y: int) -> int:
        return y + k
    f = lambda y: y * k
    k = 5
    return [g(x), f(x)]


def through_comprehension(n: int) -> List[int]:
    k = 7
    f = lambda y: y + k

    def g(y: int) -> int:
        return y - k
    return [f(0) + g(k) for k in range(n)]


def nested_calls(x: int) -> List[int]:
    k = 1

    def g(y: int) -> int:
        return y + k

    def h(y: int) -> int:
        return g(y) * 2
    k = 10
    return [h(x), g(x)]


def in_loop(n: int) -> List[int]:
    out: List[int] = []
    for i in range(n):
        def g(x: int) -> int:
            return x + i
        out.append(g(10))
        out.append(max([1, 2, 3], key=lambda v: -abs(v - i)))
    return out


def apply(f: Callable[[int], int], x: int) -> int:
    return f(x)


def passed_in_loop(n: int) -> List[int]:
    return [apply(lambda x: x * i, 3) for i in range(n)]


def returned_from_loop(n: int) -> int:
    def pick() -> Callable[[int], int]:
        for i in range(n):
            if i == 2:
                return lambda x: x + i
        return lambda x: x
    return pick()(100)


CASES = [
    ("called_late", (3,)),
    ("through_comprehension", (3,)),
    ("nested_calls", (2,)),
    ("in_loop", (3,)),
    ("passed_in_loop", (4,)),
    ("returned_from_loop", (5,)),
    ("returned_from_loop", (1,)),
]
