# error: ParseError
# line: 7
# match: 1 type(s) for 2 parameter(s)


def f(x, y):
    # type: (int) -> float
    return x + y


ENTRY = "f"
