# error: TypeCheckError
# line: 9
# match: optional

from typing import Optional


def f(x: Optional[int]) -> int:
    return x + 1


ENTRY = "f"
