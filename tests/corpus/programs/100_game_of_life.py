from typing import List


def step(grid: List[List[int]]) -> List[List[int]]:
    n = len(grid)
    m = len(grid[0])
    out = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            live = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di == 0 and dj == 0:
                        continue
                    r = (i + di) % n
                    c = (j + dj) % m
                    live += grid[r][c]
            if grid[i][j] == 1 and live in (2, 3):
                out[i][j] = 1
            elif grid[i][j] == 0 and live == 3:
                out[i][j] = 1
    return out


def run(steps: int) -> List[List[int]]:
    g = [[0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [1, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    for _ in range(steps):
        g = step(g)
    return g


CASES = [("run", (4,)), ("run", (0,))]
