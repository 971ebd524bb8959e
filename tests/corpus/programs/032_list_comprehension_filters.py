from typing import List, Tuple


def evens_squared(n: int) -> List[int]:
    return [x * x for x in range(n) if x % 2 == 0 if x != 4]


def pairs(n: int) -> List[Tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 3 == 0]


def words_long(words: List[str]) -> List[str]:
    return [w.upper() for w in words if len(w) > 3]


def nested_comp(n: int) -> List[List[int]]:
    return [[j for j in range(i) if j % 2] for i in range(n)]


CASES = [("evens_squared", (10,)), ("pairs", (5,)), ("words_long", (["a", "tree", "house"],)),
         ("nested_comp", (5,))]
