# error: TypeCheckError
# line: 6
# match: subscriptable

def f(x: int) -> int:
    return x[0]


ENTRY = "f"
