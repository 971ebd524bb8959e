from typing import List


def grade(score: int) -> str:
    if score < 0 or score > 100:
        return "invalid"
    if score >= 90:
        return "A"
    if score >= 80:
        return "B"
    if score >= 70:
        return "C"
    return "F"


def first_repeat(xs: List[int]) -> int:
    seen: List[int] = []
    for x in xs:
        if x in seen:
            return x
        seen.append(x)
    return -1


def nested_return(grid: List[List[int]], target: int) -> List[int]:
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == target:
                return [i, j]
    return []


CASES = [("grade", (95,)), ("grade", (72,)), ("grade", (-5,)), ("first_repeat", ([3, 1, 4, 1, 5],)),
         ("first_repeat", ([1, 2],)), ("nested_return", ([[1, 2], [3, 4]], 4)),
         ("nested_return", ([[1]], 9))]
