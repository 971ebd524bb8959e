# error: TypeCheckError
# line: 6
# match: more default values than field names
from collections import namedtuple

P = namedtuple("P", ["a"], defaults=[1, 2])


def f(x: int) -> int:
    return x


ENTRY = "f"
