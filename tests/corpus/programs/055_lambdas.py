from typing import List, Tuple


def sort_by_second(pairs: List[Tuple[str, int]]) -> List[Tuple[str, int]]:
    return sorted(pairs, key=lambda p: p[1])


def sort_words(words: List[str]) -> List[str]:
    return sorted(words, key=lambda w: (len(w), w), reverse=True)


def local_lambda(n: int) -> int:
    square = lambda x: x * x
    plus = lambda a, b: a + b
    return plus(square(n), square(n + 1))


def capture(n: int) -> float:
    k = 1.5
    f = lambda x: x * k
    return f(n) + f(2.0)


def sort_in_place(xs: List[int]) -> List[int]:
    xs.sort(key=lambda v: -v)
    return xs


CASES = [("sort_by_second", ([("a", 3), ("b", 1), ("c", 2)],)),
         ("sort_words", (["bb", "a", "ccc", "dd"],)), ("local_lambda", (3,)), ("capture", (2,)),
         ("sort_in_place", ([3, 1, 2],))]
