from typing import Dict


def fib_memo(n: int, memo: Dict[int, int]) -> int:
    if n in memo:
        return memo[n]
    if n < 2:
        result = n
    else:
        result = fib_memo(n - 1, memo) + fib_memo(n - 2, memo)
    memo[n] = result
    return result


def run(n: int) -> int:
    memo: Dict[int, int] = {}
    return fib_memo(n, memo) + len(memo)


def climb(n: int) -> int:
    a = 1
    b = 1
    for _ in range(n):
        a, b = b, a + b
    return a


CASES = [("run", (50,)), ("run", (0,)), ("climb", (30,))]
