import math
from typing import List, Tuple


def aliases(x: float, xs: List[int]) -> Tuple[float, int, int, float]:
    root = math.sqrt
    size = len
    biggest = max
    lg = math.log
    return root(x), size(xs), biggest(xs), lg(x, 2.0)


CASES = [("aliases", (16.0, [3, 1, 2])), ("aliases", (2.0, [5]))]
