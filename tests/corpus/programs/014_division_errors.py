def divide(a: int, b: int) -> float:
    return a / b


def fdivide(a: float, b: float) -> float:
    return a // b


def modulo(a: int, b: int) -> int:
    return a % b


CASES = [("divide", (1, 0)), ("divide", (1, 3)), ("fdivide", (1.0, 0.0)), ("modulo", (5, 0)),
         ("fdivide", (-7.0, 2.0))]
