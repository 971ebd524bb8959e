# error: TypeCheckError
# line: 13
# match: argument 's' of g() has type str


def g(s):
    # type: (str) -> int
    return len(s)


def f(x):
    # type: (int) -> int
    return g(x)


ENTRY = "f"
