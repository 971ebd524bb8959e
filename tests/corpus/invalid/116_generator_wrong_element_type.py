# error: TypeCheckError
# line: 8
# match: the value yielded by 'names'
from typing import Iterator


def names(n: int) -> Iterator[int]:
    yield "n" + str(n)


def f(n: int) -> list[int]:
    return list(names(n))


ENTRY = "f"
