# error: TypeCheckError
# line: 9
# match: math.sqrt
import math


def f(x: float) -> float:
    z = x * 1j
    return math.sqrt(z)


ENTRY = "f"
