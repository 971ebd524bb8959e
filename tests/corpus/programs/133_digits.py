from typing import List


def digits(n: int) -> List[int]:
    if n == 0:
        return [0]
    out: List[int] = []
    n = abs(n)
    while n:
        out.append(n % 10)
        n //= 10
    out.reverse()
    return out


def digital_root(n: int) -> int:
    while n >= 10:
        n = sum(digits(n))
    return n


def armstrong(n: int) -> bool:
    ds = digits(n)
    return sum([d ** len(ds) for d in ds]) == n


CASES = [("digits", (90210,)), ("digits", (-7,)), ("digital_root", (987654321,)),
         ("armstrong", (153,)), ("armstrong", (154,))]
