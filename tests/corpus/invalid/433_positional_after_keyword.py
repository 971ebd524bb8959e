# error: ParseError
# line: 10
# match: positional argument follows keyword argument

def g(a: int, b: int) -> int:
    return a - b


def f(n: int) -> int:
    return g(a=n, 2)


ENTRY = "f"
