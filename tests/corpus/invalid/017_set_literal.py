# error: UnsupportedError
# line: 6
# match: starred elements in a set literal

def f(x: int) -> int:
    s = {1, 2, *[x]}
    return len(s)


ENTRY = "f"
