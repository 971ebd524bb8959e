from typing import List


def float_sums(n: int) -> List[float]:
    xs = [0.1] * n
    return [sum(xs), sum([1e100, 1.0, -1e100]), sum([x * 3.0 for x in xs]), sum([-0.0])]


def empty_max(xs: List[str]) -> str:
    return max(xs, key=len)


def empty_min(xs: List[int]) -> int:
    return min(xs, key=lambda x: -x)


CASES = [("float_sums", (10,)), ("float_sums", (3,)), ("empty_max", ([],)),
         ("empty_max", (["a", "bb"],)), ("empty_min", ([],))]
