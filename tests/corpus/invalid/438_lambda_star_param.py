# error: UnsupportedError
# line: 7
# match: lambda parameters must be plain names


def f(x: int) -> int:
    g = lambda *a: len(a)
    return g(x, 5)


ENTRY = "f"
