from typing import List


def spiral(n: int) -> List[List[int]]:
    m = [[0] * n for _ in range(n)]
    top = 0
    bottom = n - 1
    left = 0
    right = n - 1
    k = 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            m[top][c] = k
            k += 1
        top += 1
        for r in range(top, bottom + 1):
            m[r][right] = k
            k += 1
        right -= 1
        if top <= bottom:
            for c in range(right, left - 1, -1):
                m[bottom][c] = k
                k += 1
            bottom -= 1
        if left <= right:
            for r in range(bottom, top - 1, -1):
                m[r][left] = k
                k += 1
            left += 1
    return m


CASES = [("spiral", (4,)), ("spiral", (1,)), ("spiral", (0,))]
