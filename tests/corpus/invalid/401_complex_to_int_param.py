# error: TypeCheckError
# line: 11
# match: complex


def twice(n: int) -> int:
    return n * 2


def f(z: complex) -> int:
    return twice(z)


ENTRY = "f"
