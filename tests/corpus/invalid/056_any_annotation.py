# error: TypeCheckError
# line: 8
# match: any

from typing import Any


def f(x: Any) -> int:
    return 0


ENTRY = "f"
