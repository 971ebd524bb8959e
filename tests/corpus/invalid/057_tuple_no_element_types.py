# error: TypeCheckError
# line: 5
# match: tuple

def f(x: tuple) -> int:
    return 0


ENTRY = "f"
