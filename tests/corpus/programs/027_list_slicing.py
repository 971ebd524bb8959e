from typing import List


def slices(xs: List[int]) -> List[List[int]]:
    return [xs[1:], xs[:-1], xs[::2], xs[::-1], xs[1:5:2], xs[-3:], xs[100:], xs[:0]]


def rotate(xs: List[int], k: int) -> List[int]:
    if not xs:
        return xs
    k = k % len(xs)
    return xs[-k:] + xs[:-k]


CASES = [("slices", ([1, 2, 3, 4, 5, 6],)), ("slices", ([],)), ("rotate", ([1, 2, 3, 4, 5], 2)),
         ("rotate", ([1, 2, 3], -1)), ("rotate", ([], 3))]
