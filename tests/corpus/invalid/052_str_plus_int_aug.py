# error: TypeCheckError
# line: 7
# match: cannot add

def f(x: int) -> str:
    s = "a"
    s += x
    return s


ENTRY = "f"
