# error: TypeCheckError
# line: 9
# match: lambda

from typing import List


def f(x: int) -> int:
    fs = [lambda v: v + 1]
    return x


ENTRY = "f"
