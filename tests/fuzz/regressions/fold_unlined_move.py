# Found by the program fuzzer: folding a conditional expression's branch moves (generated
# assignments without a line) into an `and`/`or` read the move's missing line, and the
# artifact failed to load ("function 'f2' cannot be translated: AttributeError").
from typing import Tuple


def f2(p0: int, p1: Tuple[int, str, int], p2: int) -> int:
    v1: bool = 0 in [0, 0, 0]
    return (p2 << 0) % len([0, p2, 350, p2] if v1 else [p0, p2, p0, p2])


def pick(flag: bool, a: int, b: int) -> int:
    xs = [a, b] if flag else [b, a, a]
    return len(xs) * 10 + xs[0]


CASES = [("f2", (3, (1, "a", 2), 5)), ("pick", (True, 1, 2)), ("pick", (False, 1, 2))]
