from typing import List


def knapsack(weights: List[int], values: List[int], cap: int) -> int:
    dp = [0] * (cap + 1)
    for i in range(len(weights)):
        w = weights[i]
        for c in range(cap, w - 1, -1):
            cand = dp[c - w] + values[i]
            if cand > dp[c]:
                dp[c] = cand
    return dp[cap]


def coin_change(coins: List[int], amount: int) -> int:
    inf = amount + 1
    dp = [inf] * (amount + 1)
    dp[0] = 0
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return dp[amount] if dp[amount] <= amount else -1


CASES = [("knapsack", ([1, 3, 4, 5], [1, 4, 5, 7], 7)), ("coin_change", ([1, 2, 5], 11)),
         ("coin_change", ([2], 3)), ("coin_change", ([3, 7], 0))]
