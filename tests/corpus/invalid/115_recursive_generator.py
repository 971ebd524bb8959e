# error: UnsupportedError
# line: 10
# match: recursive generator 'down'
from typing import Iterator


def down(n: int) -> Iterator[int]:
    if n > 0:
        yield n
        yield from down(n - 1)


def f(n: int) -> list[int]:
    return list(down(n))


ENTRY = "f"
