# error: UnsupportedError
# line: 7
# match: f(*xs) and f(**d) are supported in calls of the program
from typing import List

def f(fmt: str, xs: List[int]) -> str:
    return fmt.format(*xs)


ENTRY = "f"
