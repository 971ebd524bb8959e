# error: TypeCheckError
# line: 9
# match: unpack

from typing import Tuple


def f(t: Tuple[int, int, int]) -> int:
    a, b = t
    return a + b


ENTRY = "f"
