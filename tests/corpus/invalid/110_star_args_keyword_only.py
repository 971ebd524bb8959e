# error: UnsupportedError
# line: 5
# match: parameters after *args

def total(*args: int, scale: int = 1) -> int:
    return len(args) * scale


def f(n: int) -> int:
    return total(n)


ENTRY = "f"
