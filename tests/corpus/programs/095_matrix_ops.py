from typing import List


def matmul(a: List[List[float]], b: List[List[float]]) -> List[List[float]]:
    n = len(a)
    m = len(b[0])
    k = len(b)
    out = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            s = 0.0
            for t in range(k):
                s += a[i][t] * b[t][j]
            out[i][j] = s
    return out


def determinant(m: List[List[float]]) -> float:
    n = len(m)
    a = [row[:] for row in m]
    det = 1.0
    for c in range(n):
        pivot = c
        for r in range(c + 1, n):
            if abs(a[r][c]) > abs(a[pivot][c]):
                pivot = r
        if a[pivot][c] == 0.0:
            return 0.0
        if pivot != c:
            a[c], a[pivot] = a[pivot], a[c]
            det = -det
        det *= a[c][c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for k in range(c, n):
                a[r][k] -= f * a[c][k]
    return det


CASES = [("matmul", ([[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]])),
         ("determinant", ([[2.0, 0.0, 1.0], [1.0, 3.0, 2.0], [1.0, 1.0, 1.0]],)),
         ("determinant", ([[1.0, 2.0], [2.0, 4.0]],))]
