# error: TypeCheckError
# line: 10
# match: list.append

from typing import List


def f(x: int) -> List[int]:
    xs: List[int] = []
    xs.append("s")
    return xs


ENTRY = "f"
