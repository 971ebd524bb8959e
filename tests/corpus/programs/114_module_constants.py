from typing import List

SCALE = 3
OFFSET = 2.5
LABEL = "item"
LIMITS = (1, 10)
DEBUG = False


def scaled(xs: List[int]) -> List[float]:
    lo, hi = LIMITS
    return [x * SCALE + OFFSET for x in xs if lo <= x <= hi]


def label(i: int) -> str:
    return f"{LABEL}-{i}" + ("!" if DEBUG else "")


CASES = [("scaled", ([0, 1, 5, 11],)), ("label", (3,))]
