from typing import List


def get(xs: List[int], i: int) -> int:
    return xs[i]


def pop_empty(xs: List[int]) -> int:
    return xs.pop()


def remove_missing(xs: List[int], v: int) -> List[int]:
    xs.remove(v)
    return xs


def set_item(xs: List[int], i: int, v: int) -> List[int]:
    xs[i] = v
    return xs


CASES = [("get", ([1, 2, 3], 3)), ("get", ([1, 2, 3], -1)), ("pop_empty", ([],)),
         ("remove_missing", ([1, 2], 5)), ("set_item", ([1, 2], -2, 9)), ("set_item", ([1], 4, 0))]
