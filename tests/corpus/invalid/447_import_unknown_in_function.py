# error: UnsupportedError
# line: 7
# match: importing 'os' inside a function


def f(x: int) -> int:
    import os
    return x


ENTRY = "f"
