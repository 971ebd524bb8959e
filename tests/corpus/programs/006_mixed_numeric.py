def mixed(a: int, x: float) -> tuple:
    return (a + x, a * x, x - a, a / 4, 7 / 2, a < x, a == x, x >= a, 2 ** 0.5)


CASES = [("mixed", (3, 2.5)), ("mixed", (2, 2.0)), ("mixed", (-1, 0.0))]
