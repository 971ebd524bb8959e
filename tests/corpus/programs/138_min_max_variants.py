from typing import List


def extremes(xs: List[float]) -> List[float]:
    return [min(xs), max(xs), min(xs[0], xs[-1]), max(1.0, 2.0, 0.5), min([abs(x) for x in xs])]


def int_extremes(a: int, b: int, c: int) -> List[int]:
    return [min(a, b, c), max(a, b, c), max(a, b), min([a, b, c])]


def str_extremes(words: List[str]) -> List[str]:
    return [min(words), max(words)]


CASES = [("extremes", ([3.5, -2.0, 7.25],)), ("int_extremes", (4, -1, 9)),
         ("str_extremes", (["pear", "apple", "zoo"],))]
