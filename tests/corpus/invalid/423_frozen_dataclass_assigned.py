# error: TypeCheckError
# line: 15
# match: cannot assign to field 'x' of the frozen dataclass 'P'
from dataclasses import dataclass


@dataclass(frozen=True)
class P:
    x: int
    y: int = 0


def f(n: int) -> int:
    p = P(n)
    p.x = 3
    return p.x


ENTRY = "f"
