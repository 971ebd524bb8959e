# error: TypeCheckError
# line: 7
# match: needs a constant n

def f(a: int, n: int) -> int:
    t = (a, a)
    u = t * n
    return len(u)


ENTRY = "f"
