import math
from typing import Dict, List


def histogram(xs: List[float], bins: int) -> List[int]:
    lo = min(xs)
    hi = max(xs)
    width = (hi - lo) / bins if hi > lo else 1.0
    counts = [0] * bins
    for x in xs:
        k = int((x - lo) / width)
        if k >= bins:
            k = bins - 1
        counts[k] += 1
    return counts


def describe(xs: List[float]) -> Dict[str, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum([(x - mean) ** 2 for x in xs]) / (n - 1)
    s = sorted(xs)
    median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return {"mean": mean, "std": math.sqrt(var), "median": median}


CASES = [("histogram", ([1.0, 2.0, 2.5, 3.0, 9.5, 10.0], 3)),
         ("describe", ([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0],)), ("describe", ([1.0],))]
