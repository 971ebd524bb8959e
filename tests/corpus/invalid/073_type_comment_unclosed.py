# error: ParseError
# line: 8
# match: was never closed


def f(x,
      y):
    # type: (int, float -> float
    return x + y


ENTRY = "f"
