from typing import List, Tuple


def truths(a: List[int], b: List[str], c: List[float], d: List[List[int]]) -> List[bool]:
    return [any(a), all(a), any(b), all(b), any(c), all(c), any(d), all(d)]


def constants() -> Tuple[int, float, float, int, float]:
    return max(7, 3.14), max(-0.5, -3), min(2.0, 2), min(-3, 0.125), max(1, -2.5, 2.25)


CASES = [
    ("truths", ([1, 0, 2], ["", "a"], [0.0, 0.5], [[], [1]])),
    ("truths", ([], [], [], [])), ("truths", ([0], [""], [-0.0], [[]])),
    ("constants", ()),
]
