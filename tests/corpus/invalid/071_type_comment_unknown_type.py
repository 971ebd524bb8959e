# error: NameResolutionError
# line: 7
# match: unknown type 'flot'


def f(x, y):
    # type: (int, flot) -> float
    return x + y


ENTRY = "f"
