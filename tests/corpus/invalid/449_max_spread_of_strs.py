# error: UnsupportedError
# line: 7
# match: max(*xs) of a list of str


def f(xs: List[str]) -> str:
    return max(*xs)


ENTRY = "f"
