# error: TypeCheckError
# line: 8
# match: recursive

def f(n: int):
    if n == 0:
        return 0
    return f(n - 1) + 1


ENTRY = "f"
