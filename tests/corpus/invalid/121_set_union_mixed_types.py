# error: TypeCheckError
# line: 8
# match: unsupported operand types for |
from typing import List


def f(xs: List[int], ws: List[str]) -> int:
    u = set(xs) | set(ws)
    return len(u)


ENTRY = "f"
