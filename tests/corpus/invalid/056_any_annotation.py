# error: TypeCheckError
# line: 9
# match: any

from typing import Any


def f(x: int) -> int:
    y: Any = x
    return 0


ENTRY = "f"
