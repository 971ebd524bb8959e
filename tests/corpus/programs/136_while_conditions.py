from typing import List


def scan(xs: List[int], limit: int) -> int:
    i = 0
    total = 0
    while i < len(xs) and total + xs[i] <= limit and xs[i] >= 0:
        total += xs[i]
        i += 1
    return i * 1000 + total


def skip_spaces(s: str) -> str:
    i = 0
    while i < len(s) and (s[i] == " " or s[i] == "\t"):
        i += 1
    j = len(s)
    while j > i and s[j - 1] in " \t":
        j -= 1
    return s[i:j]


CASES = [("scan", ([3, 4, 5, 6], 10)), ("scan", ([1, -1, 2], 100)), ("skip_spaces", ("\t  hi there  ",)),
         ("skip_spaces", ("   ",))]
