# error: UnsupportedError
# line: 8
# match: needs its arguments' number at compile time


def f(xs: List[int]) -> Tuple[int, int]:
    n = len(xs)
    return divmod(*xs)


ENTRY = "f"
