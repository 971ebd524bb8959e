# error: TypeCheckError
# line: 10
# match: variable 'y'

def f(c: bool) -> int:
    if c:
        y = 1
    else:
        y = "s"
    print(y)
    return 0


ENTRY = "f"
