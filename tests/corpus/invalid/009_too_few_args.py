# error: TypeCheckError
# line: 10
# match: missing

def g(a: int, b: int) -> int:
    return a + b


def f(x: int) -> int:
    return g(x)


ENTRY = "f"
