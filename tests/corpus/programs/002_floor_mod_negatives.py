from typing import List, Tuple


def floor_mod(a: int, b: int) -> Tuple[int, int, int, int]:
    q = a // b
    r = a % b
    d = divmod(a, b)
    return q, r, d[0] * b + d[1], q * b + r


CASES = [("floor_mod", (-7, 2)), ("floor_mod", (7, -3)), ("floor_mod", (-9, -4)),
         ("floor_mod", (9, 0)), ("floor_mod", (0, -1))]
