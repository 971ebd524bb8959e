# error: UnsupportedError
# line: 7
# match: 'yield' in a lambda


def f(n: int) -> int:
    g = lambda: (yield n)
    return n


ENTRY = "f"
