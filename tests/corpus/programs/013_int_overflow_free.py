def big(n: int) -> int:
    x = 1
    for i in range(n):
        x = x * 3 % 1000000007
    return x + 2 ** 62 - 2 ** 61


CASES = [("big", (10,)), ("big", (1000,)), ("big", (0,))]
