import math
from typing import List


def specials(s: str) -> List[bool]:
    x = float(s)
    return [x == x, x < 0.0, x > 1e308, math.isnan(x), math.isinf(x), -x == x]


def neg_zero(x: float) -> List[str]:
    return [str(x * -0.0), str(-0.0 + 0.0), f"{-0.0:+.1f}", str(math.copysign(1.0, -0.0))]


def inf_arith(x: float) -> List[float]:
    inf = float("inf")
    return [inf + x, -inf * x, x / inf, min(inf, x), max(-inf, x)]


CASES = [("specials", ("nan",)), ("specials", ("-inf",)), ("specials", ("0.5",)),
         ("neg_zero", (1.0,)), ("inf_arith", (2.0,))]
