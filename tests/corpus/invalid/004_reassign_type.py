# error: TypeCheckError
# line: 7
# match: variable 'x'

def f(n: int) -> int:
    x = 1
    x = "one"
    return n


ENTRY = "f"
