from typing import List


def inverses(xs: List[int]) -> List[float]:
    return [1 / x for x in xs]


def safe_inverses(xs: List[int]) -> List[float]:
    try:
        return [1 / x for x in xs]
    except ZeroDivisionError as e:
        return [-1.0, float(len(str(e)))]


CASES = [("inverses", ([1, 2, 4],)), ("inverses", ([1, 0],)), ("safe_inverses", ([2, 0, 3],))]
