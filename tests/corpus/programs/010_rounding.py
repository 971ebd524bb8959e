def rounding(x: float) -> tuple:
    return (round(x), round(x, 1), int(x), float(int(x)), round(-x))


CASES = [("rounding", (2.5,)), ("rounding", (3.5,)), ("rounding", (-2.675,)),
         ("rounding", (0.49999,)), ("rounding", (1e10 + 0.5,))]
