def arith(a: int, b: int) -> list[int]:
    return [a + b, a - b, a * b, a // b, a % b, -a, +b, abs(a - b)]


CASES = [("arith", (7, 2)), ("arith", (-7, 2)), ("arith", (7, -2)), ("arith", (-7, -2)),
         ("arith", (0, 5))]
