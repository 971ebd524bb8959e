from typing import Dict, List


def total(a: int, b: int = 2, *rest: int, scale: int = 1) -> int:
    return (a + b + sum(rest)) * scale


def calls(n: int) -> List[int]:
    return [total(n), total(n, 3), total(n, 2, 3, 4), total(n, scale=2),
            total(n, 1, 1, scale=3)]


def word_counts(s: str) -> Dict[str, int]:
    counts = {}
    for w in s.split():
        counts[w] = counts.get(w, 0) + 1
    return counts


CASES = [("calls", (1,)), ("calls", (-4,)), ("word_counts", ("a b a c b a",)),
         ("word_counts", ("",))]
