# error: TypeCheckError
# line: 10
# match: argument

def g(s: str) -> int:
    return len(s)


def f(x: int) -> int:
    return g(x)


ENTRY = "f"
