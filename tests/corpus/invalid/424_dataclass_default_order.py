# error: UnsupportedError
# line: 10
# match: non-default argument 'y' follows default argument
from dataclasses import dataclass


@dataclass
class P:
    x: int = 0
    y: int


def f(n: int) -> int:
    return P(n, n).y


ENTRY = "f"
