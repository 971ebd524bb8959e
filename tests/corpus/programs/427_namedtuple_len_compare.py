from typing import List, NamedTuple, Tuple


class Span(NamedTuple):
    lo: int
    hi: float


def compare(a: int, b: int) -> List[bool]:
    p, q = Span(a, 1.0), Span(b, 0.5)
    return [p == q, p != q, p < q, p <= q, p > q, p >= q, p == (b, 0.5), (a, 1.0) == p]


def sizes(n: int) -> Tuple[int, int]:
    s = Span(n, n / 2)
    return len(s), len(s) + s.lo


CASES = [("compare", (1, 2)), ("compare", (2, 2)), ("compare", (3, 2)), ("sizes", (4,))]
