# error: TypeCheckError
# line: 6
# match: cannot add

def f(x: int) -> int:
    return x + "a"


ENTRY = "f"
