from typing import List


def outer(n: int) -> List[int]:
    def helper(a: int, b: int) -> int:
        return a * b + n

    def twice(x: int) -> int:
        return helper(x, 2)

    return [helper(1, 1), twice(3), twice(twice(1))]


def with_default(n: int) -> int:
    def inner(x: int, y: int = 10) -> int:
        return x + y
    return inner(n) + inner(n, 1)


CASES = [("outer", (5,)), ("with_default", (7,))]
