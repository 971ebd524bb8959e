from typing import List


def quicksort(xs: List[int]) -> List[int]:
    if len(xs) < 2:
        return xs
    pivot = xs[len(xs) // 2]
    less = [x for x in xs if x < pivot]
    equal = [x for x in xs if x == pivot]
    greater = [x for x in xs if x > pivot]
    return quicksort(less) + equal + quicksort(greater)


def partition_inplace(a: List[int], lo: int, hi: int) -> int:
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < pivot:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


def qs_inplace(a: List[int], lo: int, hi: int) -> None:
    if lo < hi:
        p = partition_inplace(a, lo, hi)
        qs_inplace(a, lo, p - 1)
        qs_inplace(a, p + 1, hi)


def sort_inplace(xs: List[int]) -> List[int]:
    qs_inplace(xs, 0, len(xs) - 1)
    return xs


CASES = [("quicksort", ([3, 6, 1, 8, 1, 9, 2],)), ("sort_inplace", ([9, -2, 7, 7, 0],)),
         ("sort_inplace", ([],))]
