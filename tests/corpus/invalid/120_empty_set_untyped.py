# error: TypeCheckError
# line: 5
# match: annotate the variable (s: Set[int] = set())
def f(n: int) -> int:
    s = set()
    return n


ENTRY = "f"
