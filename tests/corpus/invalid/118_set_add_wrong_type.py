# error: TypeCheckError
# line: 9
# match: set.add
from typing import Set


def f(n: int) -> int:
    s: Set[int] = {1, n}
    s.add("three")
    return len(s)


ENTRY = "f"
