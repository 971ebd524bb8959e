def powers(b: int, e: int) -> int:
    return pow(b, e)


def fpowers(b: float) -> float:
    return pow(b, 3) + pow(2.0, b)


def modular(b: int, e: int, m: int) -> int:
    result = 1
    b %= m
    while e > 0:
        if e & 1:
            result = result * b % m
        b = b * b % m
        e >>= 1
    return result


CASES = [("powers", (3, 4)), ("fpowers", (1.5,)), ("modular", (7, 128, 13)), ("modular", (2, 0, 5))]
