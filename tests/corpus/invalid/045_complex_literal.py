# error: UnsupportedError
# line: 6
# match: complex

def f(x: float) -> float:
    z = 1j
    return x


ENTRY = "f"
