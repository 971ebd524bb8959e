from typing import Dict, List


def collatz_longest(limit: int) -> int:
    memo: Dict[int, int] = {1: 1}

    def steps(n: int) -> int:
        if n in memo:
            return memo[n]
        k = 1 + steps(n // 2 if n % 2 == 0 else 3 * n + 1)
        memo[n] = k
        return k

    best = 1
    for n in range(1, limit):
        if steps(n) > steps(best):
            best = n
    return best


def flatten_depth(n: int) -> List[int]:
    out: List[int] = []
    scale = 10

    def walk(k: int, depth: int) -> None:
        if k <= 0:
            return
        out.append(k * scale + depth)
        walk(k - 1, depth + 1)
        walk(k - 2, depth + 1)

    walk(n, 0)
    return out


def bad_depth(n: int) -> int:
    def down(k: int) -> int:
        if k == 0:
            raise ValueError("bottom reached")
        return down(k - 1) + 1
    try:
        return down(n)
    except ValueError as e:
        return len(str(e))


CASES = [("collatz_longest", (300,)), ("flatten_depth", (5,)), ("bad_depth", (4,))]
