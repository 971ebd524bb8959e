from typing import List, Optional, Tuple


def total(xs: Tuple[int, ...]) -> int:
    s = 0
    for x in xs:
        s += x
    return s * 10 + len(xs)


def scale(xs: Tuple[float, ...], k: float = 2.0) -> List[float]:
    return [x * k for x in xs]


def first_or(xs: Tuple[str, ...], d: str) -> str:
    return xs[0] if len(xs) > 0 else d


def sums(n: int) -> List[int]:
    t: Tuple[int, ...] = (n, n + 1)
    return [total((n, n + 1, n + 2)), total(()), total((n,)), total(t)]


def scaled(x: float) -> List[float]:
    return scale((x, 1.5)) + scale((x,), k=3.0) + scale((1, 2))


def firsts(s: str) -> List[str]:
    return [first_or((s, "b"), "?"), first_or((), "?"), first_or(("z",), s)]


def count(xs: Optional[Tuple[int, ...]] = None) -> int:
    return -1 if xs is None else len(xs)


def counts(n: int) -> List[int]:
    return [count(), count((n, n)), count(None), count(())]


CASES = [("counts", (2,)), ("sums", (3,)), ("sums", (-1,)), ("scaled", (0.5,)), ("firsts", ("a",))]
