# error: TypeCheckError
# line: 7
# match: variable 'y'

def f(x: int) -> int:
    y = 1
    y = 2.5
    return x


ENTRY = "f"
