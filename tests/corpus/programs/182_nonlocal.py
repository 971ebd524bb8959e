from typing import Callable, List


def accumulate(n: int) -> int:
    c = 0

    def inc(k: int) -> None:
        nonlocal c
        c += k
    inc(n)
    inc(2)
    return c


def running(xs: List[int]) -> List[int]:
    total = 0
    seen: List[int] = []

    def add(x: int) -> int:
        nonlocal total
        total = total + x
        seen.append(total)
        return total
    for x in xs:
        add(x)
    return seen + [total]


def parameter_shared(n: int) -> str:
    s = "a"

    def push(t: str) -> None:
        nonlocal s, n
        s += t
        n -= 1
    while n > 0:
        push(str(n))
    return s + str(n)


def in_try(xs: List[str]) -> int:
    bad = 0

    def parse(x: str) -> int:
        nonlocal bad
        try:
            return int(x)
        except ValueError:
            bad += 1
            return 0
    total = 0
    for x in xs:
        total += parse(x)
    return total * 100 + bad


def reads_late(n: int) -> int:
    k = n

    def get() -> int:
        return k

    def bump() -> None:
        nonlocal k
        k = k * 2
    bump()
    a = get()
    bump()
    return a * 1000 + get()


CASES = [
    ("accumulate", (3,)),
    ("running", ([1, 2, 3],)),
    ("running", ([],)),
    ("parameter_shared", (3,)),
    ("parameter_shared", (0,)),
    ("in_try", (["1", "x", "20", ""],)),
    ("reads_late", (3,)),
]
