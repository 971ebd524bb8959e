# error: TypeCheckError
# line: 7
# match: complex


def f(x: float) -> float:
    return x * 1j


ENTRY = "f"
