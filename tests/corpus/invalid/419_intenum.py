# error: UnsupportedError
# line: 7
# match: IntEnum classes are not supported
from enum import IntEnum


class Color(IntEnum):
    RED = 1


def f(n: int) -> int:
    return Color.RED + n


ENTRY = "f"
