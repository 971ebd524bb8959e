# error: TypeCheckError
# line: 9
# match: variable 'y'

def f(c: bool) -> int:
    if c:
        y = 1
    else:
        y = "s"
    return 0


ENTRY = "f"
