# error: TypeCheckError
# line: 6
# match: needs ints

def f(x: float) -> float:
    return x << 2


ENTRY = "f"
