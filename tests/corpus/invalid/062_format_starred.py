# error: UnsupportedError
# line: 7
# match: needs its arguments' number at compile time
from typing import List

def f(fmt: str, xs: List[int]) -> str:
    return fmt.format(*xs)


ENTRY = "f"
