# error: TypeCheckError
# line: 6
# match: variable-length Tuple[T, ...] is not supported


def f(xs: Tuple[int, ...]) -> int:
    return len(xs)


ENTRY = "f"
