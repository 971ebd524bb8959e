# error: TypeCheckError
# line: 8
# match: return value


def f(x, y):
    # type: (int, int) -> str
    return x + y


ENTRY = "f"
