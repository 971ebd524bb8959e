from typing import List


def gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def lcm(a: int, b: int) -> int:
    return abs(a * b) // gcd(a, b) if a and b else 0


def factorize(n: int) -> List[int]:
    out: List[int] = []
    d = 2
    while d * d <= n:
        while n % d == 0:
            out.append(d)
            n //= d
        d += 1
    if n > 1:
        out.append(n)
    return out


def sieve(n: int) -> List[int]:
    flags = [True] * (n + 1)
    flags[0] = False
    if n >= 1:
        flags[1] = False
    i = 2
    while i * i <= n:
        if flags[i]:
            for j in range(i * i, n + 1, i):
                flags[j] = False
        i += 1
    return [k for k in range(n + 1) if flags[k]]


CASES = [("gcd", (48, -18)), ("lcm", (4, 6)), ("lcm", (0, 5)), ("factorize", (360,)),
         ("factorize", (97,)), ("sieve", (50,)), ("sieve", (1,))]
