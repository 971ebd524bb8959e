# error: UnsupportedError
# line: 10
# match: f(*xs) needs xs to be a tuple or a list

def g(a: int, b: int) -> int:
    return a - b


def f(xs: Set[int]) -> int:
    return g(*xs)


ENTRY = "f"
