# error: UnsupportedError
# line: 10
# match: field(init=...) is not supported
from dataclasses import dataclass, field


@dataclass
class P:
    x: int
    y: int = field(init=False, default=0)


def f(n: int) -> int:
    return P(n).x


ENTRY = "f"
