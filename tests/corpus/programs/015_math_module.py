import math


def trig(x: float) -> list[float]:
    return [math.sin(x), math.cos(x), math.tan(x), math.atan2(x, 1.0), math.hypot(x, 3.0),
            math.exp(x), math.log(x + 10.0), math.log(8.0, 2.0), math.log10(1000.0)]


def ints(x: float) -> list[int]:
    return [math.floor(x), math.ceil(x), math.trunc(x), math.gcd(12, 18), math.factorial(6)]


def consts() -> tuple:
    return (math.pi, math.e, math.inf > 1e308, math.isnan(math.nan), math.isinf(-math.inf))


def domain(x: float) -> float:
    return math.sqrt(x)


CASES = [("trig", (0.5,)), ("ints", (-2.5,)), ("ints", (3.0,)), ("consts", ()),
         ("domain", (-1.0,))]
