# error: TypeCheckError
# line: 7
# match: slice bounds must be ints or None, not str


def f(xs: List[int], a: str) -> List[int]:
    s = slice(a, 3)
    return xs[s]


ENTRY = "f"
