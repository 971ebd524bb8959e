def reprs(x: float) -> list[str]:
    return [str(x), repr(x), str(x * 3), str(x / 7), f"{x}", str(-x)]


CASES = [("reprs", (0.1,)), ("reprs", (1e22,)), ("reprs", (1.5e-7,)), ("reprs", (100.0,)),
         ("reprs", (float("inf"),))]
