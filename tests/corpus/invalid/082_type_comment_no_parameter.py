# error: ParseError
# line: 7
# match: no parameter on this line


def f(
    # type: int
    x):
    return x


ENTRY = "f"
