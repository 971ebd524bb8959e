# error: UnsupportedError
# line: 6
# match: ellipsis

def f(x: int) -> int:
    y = ...
    return x


ENTRY = "f"
