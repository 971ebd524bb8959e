# error: NameResolutionError
# line: 9
# match: method

from typing import List


def f(xs: List[int]) -> int:
    xs.push(1)
    return len(xs)


ENTRY = "f"
