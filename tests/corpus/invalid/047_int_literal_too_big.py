# error: TypeCheckError
# line: 6
# match: 64 bits

def f(x: int) -> int:
    return x + 100000000000000000000


ENTRY = "f"
