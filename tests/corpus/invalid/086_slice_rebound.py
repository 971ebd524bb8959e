# error: UnsupportedError
# line: 7
# match: a slice object can only be bound to a local variable assigned once


def f(xs: List[int], b: bool) -> List[int]:
    s = slice(0, 1)
    if b:
        s = slice(1, 2)
    return xs[s]


ENTRY = "f"
