from typing import List


def matrix(n: int) -> List[List[int]]:
    m = [[i * n + j for j in range(n)] for i in range(n)]
    for i in range(n):
        m[i][i] = 0
    return m


def transpose(m: List[List[int]]) -> List[List[int]]:
    if not m:
        return []
    return [[m[r][c] for r in range(len(m))] for c in range(len(m[0]))]


def flatten(m: List[List[int]]) -> List[int]:
    return [x for row in m for x in row]


CASES = [("matrix", (3,)), ("transpose", ([[1, 2, 3], [4, 5, 6]],)),
         ("flatten", ([[1], [2, 3], []],)), ("transpose", ([],))]
