from typing import List


def lis(xs: List[int]) -> int:
    tails: List[int] = []
    for x in xs:
        lo = 0
        hi = len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(tails):
            tails.append(x)
        else:
            tails[lo] = x
    return len(tails)


def max_subarray(xs: List[int]) -> int:
    best = xs[0]
    cur = 0
    for x in xs:
        cur = max(x, cur + x)
        best = max(best, cur)
    return best


CASES = [("lis", ([10, 9, 2, 5, 3, 7, 101, 18],)), ("lis", ([],)),
         ("max_subarray", ([-2, 1, -3, 4, -1, 2, 1, -5, 4],)), ("max_subarray", ([-3, -1],))]
