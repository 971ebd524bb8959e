# error: ParseError
# line: 5
# match: 'yield' outside function

LIMIT = yield 3


def f(a: int) -> int:
    return a


ENTRY = "f"
