# error: TypeCheckError
# line: 6
# match: not callable

def f(x: int) -> int:
    return x(3)


ENTRY = "f"
