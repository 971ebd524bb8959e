from typing import List, Optional


def join(parts: List[str], sep: Optional[str] = None) -> str:
    if sep is None:
        sep = ", "
    return sep.join(parts)


def window(xs: List[int], start: int = 0, stop: Optional[int] = None) -> List[int]:
    end = len(xs) if stop is None else stop
    return xs[start:end]


def run(n: int) -> List[str]:
    xs = list(range(n))
    return [join(["a", "b"]), join(["a", "b"], "-"), str(window(xs)), str(window(xs, 2)),
            str(window(xs, 1, 3))]


CASES = [("run", (5,))]
