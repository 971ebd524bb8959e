# error: UnsupportedError
# line: 6
# match: import

def f(x: float) -> float:
    import math
    return x


ENTRY = "f"
