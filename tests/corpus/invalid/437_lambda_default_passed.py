# error: UnsupportedError
# line: 8
# match: lambda parameter that has a default


def f(x: int) -> int:
    g = lambda a, b=2: a * b
    return g(x, 5)


ENTRY = "f"
