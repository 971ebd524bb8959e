# error: UnsupportedError
# line: 6
# match: set

def f(x: int) -> int:
    s = {1, 2, x}
    return x


ENTRY = "f"
