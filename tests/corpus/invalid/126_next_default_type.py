# error: TypeCheckError
# line: 9
# match: next()'s default
from typing import List


def f(xs: List[int]) -> int:
    it = iter(xs)
    return next(it, "none")


ENTRY = "f"
