# error: UnsupportedError
# line: 11
# match: captures 'k'

from typing import Callable


def f(x: int) -> int:
    k = 1

    g: Callable[[int], int] = lambda y: y + k
    k = 2
    return g(x)


ENTRY = "f"
