# error: TypeCheckError
# line: 9
# match: int

from typing import List


def f(xs: List[int]) -> int:
    return int(xs)


ENTRY = "f"
