from typing import Dict, List, Tuple


def squares(n: int):
    for i in range(n):
        yield i * i


def index(n: int, words: List[str]) -> Tuple[Dict[int, int], Dict[str, Tuple[int, str]]]:
    by_square = {}
    for v in squares(n):
        by_square[v] = v % 3
    where = {}
    for i, w in enumerate(words):
        where[w.upper()] = (i, w)
    return by_square, where


CASES = [("index", (4, ["a", "bb"])), ("index", (0, []))]
