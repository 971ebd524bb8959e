from typing import List


def sift_down(h: List[int], i: int, n: int) -> None:
    while True:
        smallest = i
        left = 2 * i + 1
        right = 2 * i + 2
        if left < n and h[left] < h[smallest]:
            smallest = left
        if right < n and h[right] < h[smallest]:
            smallest = right
        if smallest == i:
            return
        h[i], h[smallest] = h[smallest], h[i]
        i = smallest


def heapsort(xs: List[int]) -> List[int]:
    h = xs[:]
    n = len(h)
    for i in range(n // 2 - 1, -1, -1):
        sift_down(h, i, n)
    out: List[int] = []
    while n > 0:
        out.append(h[0])
        n -= 1
        h[0] = h[n]
        sift_down(h, 0, n)
    return out


CASES = [("heapsort", ([5, 3, 8, 1, 9, 2, 7],)), ("heapsort", ([1, 1, 1],))]
