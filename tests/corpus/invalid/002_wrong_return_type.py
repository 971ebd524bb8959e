# error: TypeCheckError
# line: 7
# match: return

def f(x: int) -> str:
    y = x * 2
    return y


ENTRY = "f"
