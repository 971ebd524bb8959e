def chain(a: int, b: int, c: int) -> list[bool]:
    return [a < b < c, a <= b <= c, a < b > c, a == b == c, a != b != c, 0 <= a < 10 <= c]


CASES = [("chain", (1, 2, 3)), ("chain", (3, 2, 1)), ("chain", (2, 2, 2)), ("chain", (5, 7, 12))]
