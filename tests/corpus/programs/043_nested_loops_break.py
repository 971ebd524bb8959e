from typing import List, Tuple


def find_pair(xs: List[int], target: int) -> Tuple[int, int]:
    found_i = -1
    found_j = -1
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                found_i = i
                found_j = j
                break
        if found_i >= 0:
            break
    return found_i, found_j


def multiplication_table(n: int) -> List[str]:
    rows: List[str] = []
    for i in range(1, n + 1):
        row = ""
        for j in range(1, n + 1):
            if j > i:
                continue
            row += f"{i * j:4d}"
        rows.append(row)
    return rows


CASES = [("find_pair", ([2, 7, 11, 15], 9)), ("find_pair", ([1, 2], 10)),
         ("multiplication_table", (4,))]
