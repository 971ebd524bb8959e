from typing import List


def ranges(n: int) -> List[List[int]]:
    return [[i for i in range(n)], [i for i in range(2, n)], [i for i in range(n, 0, -2)],
            [i for i in range(-3, 3, 2)], [i for i in range(5, 5)], list(range(0, 10, 3))]


def reversed_range(n: int) -> List[int]:
    out: List[int] = []
    for i in reversed(range(n)):
        out.append(i)
    for i in reversed(range(1, n, 2)):
        out.append(i * 10)
    return out


def step_zero(n: int) -> List[int]:
    return [i for i in range(0, n, 0)]


CASES = [("ranges", (7,)), ("reversed_range", (5,)), ("step_zero", (3,))]
