from typing import Dict, List, Tuple


def two_sum(xs: List[int], target: int) -> Tuple[int, int]:
    seen: Dict[int, int] = {}
    for i, x in enumerate(xs):
        if target - x in seen:
            return seen[target - x], i
        seen[x] = i
    return -1, -1


def majority(xs: List[int]) -> int:
    cand = 0
    count = 0
    for x in xs:
        if count == 0:
            cand = x
        count += 1 if x == cand else -1
    return cand


def max_profit(prices: List[int]) -> int:
    best = 0
    lo = prices[0] if prices else 0
    for p in prices:
        lo = min(lo, p)
        best = max(best, p - lo)
    return best


CASES = [("two_sum", ([2, 7, 11, 15], 9)), ("two_sum", ([1, 2], 7)),
         ("majority", ([2, 2, 1, 1, 1, 2, 2],)), ("max_profit", ([7, 1, 5, 3, 6, 4],)),
         ("max_profit", ([],))]
