# error: TypeCheckError
# line: 9
# match: key

from typing import Dict


def f(d: Dict[str, int]) -> int:
    return d[3]


ENTRY = "f"
