from typing import List


def permutations(xs: List[int]) -> List[List[int]]:
    if len(xs) <= 1:
        return [xs[:]]
    out: List[List[int]] = []
    for i in range(len(xs)):
        rest = xs[:i] + xs[i + 1:]
        for p in permutations(rest):
            out.append([xs[i]] + p)
    return out


def solve(n: int, row: int, cols: List[int]) -> int:
    if row == n:
        return 1
    count = 0
    for c in range(n):
        ok = True
        for r in range(row):
            if cols[r] == c or abs(cols[r] - c) == row - r:
                ok = False
                break
        if ok:
            cols.append(c)
            count += solve(n, row + 1, cols)
            cols.pop()
    return count


def n_queens(n: int) -> int:
    return solve(n, 0, [])


CASES = [("permutations", ([1, 2, 3],)), ("permutations", ([],)), ("n_queens", (6,)),
         ("n_queens", (1,))]
