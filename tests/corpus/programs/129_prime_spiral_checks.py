from typing import List


def is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n % 2 == 0:
        return n == 2
    d = 3
    while d * d <= n:
        if n % d == 0:
            return False
        d += 2
    return True


def twin_primes(limit: int) -> List[List[int]]:
    return [[p, p + 2] for p in range(2, limit) if is_prime(p) and is_prime(p + 2)]


def goldbach(n: int) -> List[int]:
    for p in range(2, n // 2 + 1):
        if is_prime(p) and is_prime(n - p):
            return [p, n - p]
    return []


CASES = [("twin_primes", (50,)), ("goldbach", (100,)), ("goldbach", (3,))]
