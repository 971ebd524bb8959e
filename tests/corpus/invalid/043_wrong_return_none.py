# error: TypeCheckError
# line: 7
# match: return

def f(x: int) -> int:
    if x > 0:
        return
    return x


ENTRY = "f"
