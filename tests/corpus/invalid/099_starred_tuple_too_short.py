# error: TypeCheckError
# line: 7
# match: cannot unpack a tuple of 1 values into at least 2 targets


def f(t: Tuple[int]) -> int:
    a, b, *rest = t
    return a + b


ENTRY = "f"
