from typing import List


def gens(xs: List[int]) -> List[int]:
    return [sum(x * x for x in xs), max(x % 7 for x in xs), min(abs(x - 10) for x in xs),
            int(any(x > 100 for x in xs)), int(all(x > 0 for x in xs))]


def early_any(xs: List[int]) -> bool:
    return any(10 // x > 2 for x in xs)


CASES = [("gens", ([3, 9, 12, 20],)), ("early_any", ([1, 0],)), ("early_any", ([5, 0],))]
