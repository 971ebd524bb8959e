# error: UnsupportedError
# line: 10
# match: f(*xs) needs xs to be a tuple

def g(a: int, b: int) -> int:
    return a - b


def f(xs: list[int]) -> int:
    return g(*xs)


ENTRY = "f"
