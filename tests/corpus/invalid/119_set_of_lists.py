# error: TypeCheckError
# line: 8
# match: must be hashable
from typing import List


def f(n: int) -> int:
    s = {[n], [n + 1]}
    return len(s)


ENTRY = "f"
