from typing import List, Tuple


def conversions(seconds: int) -> Tuple[int, int, int]:
    m, s = divmod(seconds, 60)
    h, m = divmod(m, 60)
    return h, m, s


def rounding(xs: List[float]) -> List[float]:
    return [round(x, 2) for x in xs]


def abs_all(xs: List[int]) -> List[int]:
    return [abs(x) for x in xs]


CASES = [("conversions", (3725,)), ("conversions", (-61,)), ("rounding", ([1.005, 2.675, -0.125],)),
         ("abs_all", ([-3, 0, 4],))]
