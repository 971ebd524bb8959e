import math


def float_ops(x: float, y: float) -> list[float]:
    return [x + y, x - y, x * y, x / y, x // y, x % y, -x, abs(y), math.sqrt(abs(x))]


CASES = [("float_ops", (7.5, 2.0)), ("float_ops", (-7.5, 2.0)), ("float_ops", (1e300, 1e-300)),
         ("float_ops", (0.1, 0.2)), ("float_ops", (5.0, 0.0))]
