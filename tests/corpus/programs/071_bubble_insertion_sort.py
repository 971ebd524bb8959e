from typing import List


def bubble(xs: List[int]) -> List[int]:
    a = xs[:]
    n = len(a)
    for i in range(n):
        swapped = False
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swapped = True
        if not swapped:
            break
    return a


def insertion(xs: List[float]) -> List[float]:
    a = xs[:]
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


CASES = [("bubble", ([5, 2, 9, 1, 5, 6],)), ("bubble", ([],)), ("insertion", ([3.5, -1.0, 2.25],))]
