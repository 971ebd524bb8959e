from typing import List


def repeat(n: int) -> List[int]:
    zeros = [0] * n
    pattern = [1, 2] * 3
    more = 2 * [7]
    return zeros + pattern + more


def grid(n: int) -> List[List[int]]:
    g = [[0] * n for _ in range(n)]
    g[0][n - 1] = 5
    return g


CASES = [("repeat", (3,)), ("repeat", (0,)), ("grid", (3,))]
