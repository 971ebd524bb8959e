def classify(n: int) -> str:
    return "neg" if n < 0 else "zero" if n == 0 else "pos"


def clamp(x: float, lo: float, hi: float) -> float:
    return lo if x < lo else hi if x > hi else x


def mixed(flag: bool) -> float:
    return 1.0 if flag else 2.5


CASES = [("classify", (-3,)), ("classify", (0,)), ("classify", (8,)),
         ("clamp", (5.0, 0.0, 1.0)), ("clamp", (-5.0, 0.0, 1.0)), ("clamp", (0.5, 0.0, 1.0)),
         ("mixed", (True,)), ("mixed", (False,))]
