# error: TypeCheckError
# line: 5
# match: return

def f(x: int) -> int:
    if x > 0:
        return 1


ENTRY = "f"
