from typing import Tuple


def rounding(x: float, n: int) -> Tuple[float, int, int, int, float, int]:
    return round(x, ndigits=1), round(n, -1), round(n), round(True), round(x, n), \
        round(number=x)


def int_digits(n: int) -> Tuple[int, int]:
    return round(n, 2), round(n, ndigits=-2)


CASES = [("rounding", (2.345, 17)), ("rounding", (-0.5, 0)), ("int_digits", (1250,))]
