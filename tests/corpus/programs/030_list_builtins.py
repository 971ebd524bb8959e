from typing import List


def stats(xs: List[int]) -> tuple:
    return (len(xs), sum(xs), min(xs), max(xs), sorted(xs), sorted(xs, reverse=True),
            any([x > 3 for x in xs]), all([x > 0 for x in xs]))


def fstats(xs: List[float]) -> tuple:
    return (sum(xs), min(xs), max(xs), sum(xs) / len(xs))


def empty_min(xs: List[int]) -> int:
    return min(xs)


CASES = [("stats", ([3, 1, 4, 1, 5],)), ("fstats", ([0.5, 2.25, -1.0],)),
         ("empty_min", ([],)), ("stats", ([-2],))]
