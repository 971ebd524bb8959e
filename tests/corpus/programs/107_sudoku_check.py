from typing import List


def valid_group(vals: List[int]) -> bool:
    seen = [False] * 10
    for v in vals:
        if v == 0:
            continue
        if seen[v]:
            return False
        seen[v] = True
    return True


def valid_sudoku(board: List[List[int]]) -> bool:
    for i in range(9):
        if not valid_group(board[i]):
            return False
        if not valid_group([board[r][i] for r in range(9)]):
            return False
    for br in range(3):
        for bc in range(3):
            box = [board[3 * br + r][3 * bc + c] for r in range(3) for c in range(3)]
            if not valid_group(box):
                return False
    return True


EMPTY = [[0] * 9 for _ in range(9)]
BAD = [[5, 5, 0, 0, 0, 0, 0, 0, 0]] + [[0] * 9 for _ in range(8)]
CASES = [("valid_sudoku", (EMPTY,)), ("valid_sudoku", (BAD,))]
