# error: UnsupportedError
# line: 13
# match: 'count' is a generator function
from typing import Iterator


def count(n: int) -> Iterator[int]:
    for i in range(n):
        yield i


def f(n: int) -> int:
    it = count(n)
    return n


ENTRY = "f"
