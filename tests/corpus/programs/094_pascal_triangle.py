from typing import List


def pascal(n: int) -> List[List[int]]:
    rows: List[List[int]] = []
    for i in range(n):
        row = [1] * (i + 1)
        for j in range(1, i):
            row[j] = rows[i - 1][j - 1] + rows[i - 1][j]
        rows.append(row)
    return rows


def binomial(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    k = min(k, n - k)
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


CASES = [("pascal", (6,)), ("binomial", (30, 15)), ("binomial", (5, 7))]
