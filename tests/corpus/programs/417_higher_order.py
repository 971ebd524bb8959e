from typing import Dict, List, Tuple


def double(x: int) -> int:
    return 2 * x


def halve(x: int) -> float:
    return x / 2


def apply(fn, x):
    return fn(x)


def twice(fn, x):
    return fn(fn(x))


def grouped(words: List[str]) -> Dict[int, List[str]]:
    by_len = {}
    for w in words:
        by_len.setdefault(len(w), []).append(w)
    return by_len


def use(x: int) -> Tuple[int, int, float]:
    return apply(double, x), twice(double, x), apply(halve, x)


CASES = [("use", (5,)), ("use", (-1,)), ("grouped", (["a", "bb", "c"],)), ("grouped", ([],))]
