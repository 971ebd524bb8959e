# error: TypeCheckError
# line: 10
# match: takes 1 positional argument(s) but 2 were given

def g(x: int, *, y: int = 1) -> int:
    return x + y


def f(n: int) -> int:
    return g(n, 2)


ENTRY = "f"
