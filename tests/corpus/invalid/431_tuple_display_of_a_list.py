# error: UnsupportedError
# line: 7
# match: needs xs to be a tuple


def f(xs: List[int]) -> int:
    t = (*xs, 1)
    return len(t)


ENTRY = "f"
