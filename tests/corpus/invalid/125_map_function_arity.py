# error: TypeCheckError
# line: 8
# match: this lambda takes 2 argument(s)
from typing import List


def f(xs: List[int]) -> List[int]:
    return list(map(lambda a, b: a + b, xs))


ENTRY = "f"
