from typing import List


def c_to_f(c: float) -> float:
    return c * 9 / 5 + 32


def table(start: int, stop: int, step: int) -> List[str]:
    return [f"{c:>4d}C = {c_to_f(c):6.1f}F" for c in range(start, stop, step)]


CASES = [("table", (-20, 41, 20)), ("c_to_f", (37.0,))]
