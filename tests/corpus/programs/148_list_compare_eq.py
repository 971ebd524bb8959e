from typing import List, Tuple


def compare(a: List[int], b: List[int]) -> List[bool]:
    return [a == b, a != b, a < b, a <= b, a > b]


def tuples(a: Tuple[int, str], b: Tuple[int, str]) -> List[bool]:
    return [a == b, a < b, a >= b]


CASES = [("compare", ([1, 2, 3], [1, 2, 4])), ("compare", ([1, 2], [1, 2])), ("compare", ([], [0])),
         ("tuples", ((1, "b"), (1, "a")))]
