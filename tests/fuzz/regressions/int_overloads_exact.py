# Found by a probe of the generator's next productions: round(35, -1) returned 40.0 (the
# float overload, by int -> float promotion) where CPython returns the int 40; the first
# overload that matched after promotion won even when an exact one followed. round(n)
# and math.floor(n) of a large int lost precision the same way.
import math
from typing import List


def round_ints(n: int) -> List[int]:
    return [round(n, -1), round(25, -1), round(-35, -1), round(n, 2), round(n)]


def exact_big(n: int) -> List[int]:
    return [round(n), math.floor(n), math.ceil(n), round(n, -3)]


def floats_still_float(x: float) -> List[float]:
    return [round(x, 1), round(x, -1)]


CASES = [("round_ints", (35,)), ("round_ints", (-1234,)),
         ("exact_big", (2 ** 53 + 1,)), ("floats_still_float", (17.25,))]
