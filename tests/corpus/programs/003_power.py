def int_pow(b: int, e: int) -> int:
    return b ** e


def neg_const_exp(b: int) -> float:
    return b ** -1 + 2 ** -2


def float_pow(b: float, e: float) -> float:
    return b ** e


CASES = [("int_pow", (2, 10)), ("int_pow", (-3, 3)), ("int_pow", (0, 0)), ("int_pow", (7, 0)),
         ("neg_const_exp", (4,)), ("float_pow", (2.0, 0.5)), ("float_pow", (9.0, -0.5)),
         ("float_pow", (0.0, -1.0))]
