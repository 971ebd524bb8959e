# error: TypeCheckError
# line: 10
# match: keyword

def g(a: int) -> int:
    return a


def f(x: int) -> int:
    return g(b=x)


ENTRY = "f"
