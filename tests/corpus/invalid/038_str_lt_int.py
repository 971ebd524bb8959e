# error: TypeCheckError
# line: 6
# match: compare

def f(s: str, n: int) -> bool:
    return s < n


ENTRY = "f"
