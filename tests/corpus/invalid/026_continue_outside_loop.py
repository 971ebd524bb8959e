# error: TypeCheckError
# line: 6
# match: continue

def f(x: int) -> int:
    continue


ENTRY = "f"
