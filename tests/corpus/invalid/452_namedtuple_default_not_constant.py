# error: UnsupportedError
# line: 12
# match: NamedTuple defaults must be constants or lists


class P(NamedTuple):
    x: int
    y: List[int] = list(range(3))


def f(n: int) -> int:
    return len(P(n).y)


ENTRY = "f"
