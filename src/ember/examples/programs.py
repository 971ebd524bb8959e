"""Control-flow programs beyond TorchScript: recursion, try/except, closures, formatting."""

from typing import Dict, List


def collatz_report(limit: int) -> str:
    """The start below `limit` with the longest Collatz chain, found with a memo dict and a
    recursive helper, formatted like CPython would."""
    memo: Dict[int, int] = {1: 1}

    def steps(n: int) -> int:
        if n in memo:
            return memo[n]
        k = 1 + steps(n // 2 if n % 2 == 0 else 3 * n + 1)
        memo[n] = k
        return k

    best, best_len = 1, 1
    for n in range(1, limit):
        k = steps(n)
        if k > best_len:
            best, best_len = n, k
    ratios: List[float] = [memo[n] / n for n in range(1, 10)]
    try:
        worst = max(r for r in ratios if r > 100.0)
    except ValueError:
        worst = -1.0
    return f"{best} takes {best_len} steps; mean ratio {sum(ratios) / len(ratios):.3f}; " \
        f"worst {worst:+.1f}"
