# error: TypeCheckError
# line: 9
# match: any

from typing import Any


class Box:
    value: Any

    def __init__(self, v: int):
        self.value = v


def f(x: int) -> int:
    return Box(x).value


ENTRY = "f"
