# error: TypeCheckError
# line: 9
# match: out of range

from typing import Tuple


def f(t: Tuple[int, int]) -> int:
    return t[2]


ENTRY = "f"
