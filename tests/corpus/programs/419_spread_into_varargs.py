from typing import List, Tuple


def total(base: int, *args: int, scale: int = 1) -> int:
    s = base
    for a in args:
        s += a
    return s * scale + len(args)


def longest(*words: str) -> str:
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def use(xs: List[int], ws: List[str]) -> Tuple[int, int, int, str, str]:
    return total(0, *xs), total(1, *(xs + [10]), scale=2), total(5), longest(*ws), \
        longest("a", "bcd")


CASES = [("use", ([1, 2, 3], ["x", "yyy", "zz"])), ("use", ([], []))]
