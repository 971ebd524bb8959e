# error: NameResolutionError
# line: 9
# match: method

from typing import Dict


def f(d: Dict[str, int]) -> int:
    return d.lookup("a")


ENTRY = "f"
