# error: TypeCheckError
# line: 8
# match: object is not an iterator
from typing import List


def f(xs: List[int]) -> int:
    return next(xs)


ENTRY = "f"
