# error: UnsupportedError
# line: 8
# match: strict


def f(a: List[int], b: List[int]) -> int:
    total = 0
    for x, y in zip(a, b,
                    strict=True):
        total += x * y
    return total


ENTRY = "f"
