from typing import List


def scale_all(xs: List[float], k: float) -> List[float]:
    f = lambda v: v * k + 1.0
    return [f(x) for x in xs]


def pick(xs: List[int], threshold: int) -> List[int]:
    keep = lambda v: v > threshold
    return [x for x in xs if keep(x)]


CASES = [("scale_all", ([1.0, 2.0], 0.5)), ("pick", ([1, 5, 3, 8], 3))]
