from typing import Optional


def must(x: Optional[int]) -> int:
    assert x is not None, "x is required"
    return x * 2


def narrowed_loop(n: int) -> int:
    best: Optional[int] = None
    for i in range(n):
        v = (i * 7) % 5
        if best is None or v > best:
            best = v
    if best is None:
        return -1
    return best


CASES = [("must", (4,)), ("must", (None,)), ("narrowed_loop", (6,)), ("narrowed_loop", (0,))]
