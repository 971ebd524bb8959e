# error: UnsupportedError
# line: 8
# match: 'yield' used as a value
from typing import Iterator


def echo(n: int) -> Iterator[int]:
    got = yield n
    yield n + 1


def f(n: int) -> list[int]:
    return list(echo(n))


ENTRY = "f"
