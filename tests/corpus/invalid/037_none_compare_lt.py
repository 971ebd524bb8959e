# error: TypeCheckError
# line: 9
# match: compare

from typing import Optional


def f(x: Optional[int]) -> bool:
    return x < 3


ENTRY = "f"
