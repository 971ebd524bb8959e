# error: TypeCheckError
# line: 7
# match: different types


def f(t: Tuple[int, str, float]) -> int:
    a, *rest = t
    return a


ENTRY = "f"
