from typing import List


def bsearch(xs: List[int], target: int) -> int:
    lo = 0
    hi = len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -(lo + 1)


def lower_bound(xs: List[int], target: int) -> int:
    lo = 0
    hi = len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo


CASES = [("bsearch", ([1, 3, 5, 7, 9, 11], 7)), ("bsearch", ([1, 3, 5, 7], 4)),
         ("lower_bound", ([1, 2, 2, 2, 3], 2)), ("lower_bound", ([], 5))]
