# error: TypeCheckError
# line: 10
# match: argument

def g(a: int) -> int:
    return a


def f(x: int) -> int:
    return g(x, x)


ENTRY = "f"
