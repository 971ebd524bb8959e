# error: TypeCheckError
# line: 7
# match: break

def f(x: int) -> int:
    if x > 0:
        break
    return x


ENTRY = "f"
