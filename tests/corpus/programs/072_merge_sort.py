from typing import List


def merge(a: List[int], b: List[int]) -> List[int]:
    out: List[int] = []
    i = 0
    j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def merge_sort(xs: List[int]) -> List[int]:
    if len(xs) <= 1:
        return xs
    mid = len(xs) // 2
    return merge(merge_sort(xs[:mid]), merge_sort(xs[mid:]))


CASES = [("merge_sort", ([38, 27, 43, 3, 9, 82, 10],)), ("merge_sort", ([1],)),
         ("merge_sort", ([5, 4, 3, 2, 1, 0, -1],))]
