import math


def newton_sqrt(x: float) -> float:
    if x < 0:
        raise ValueError("negative")
    guess = x if x > 1 else 1.0
    for _ in range(50):
        nxt = 0.5 * (guess + x / guess)
        if abs(nxt - guess) < 1e-15:
            break
        guess = nxt
    return guess


def simpson(n: int) -> float:
    a = 0.0
    b = math.pi
    h = (b - a) / n
    s = math.sin(a) + math.sin(b)
    for i in range(1, n):
        x = a + i * h
        s += (4 if i % 2 else 2) * math.sin(x)
    return s * h / 3


CASES = [("newton_sqrt", (2.0,)), ("newton_sqrt", (0.25,)), ("newton_sqrt", (-4.0,)),
         ("simpson", (10,)), ("simpson", (100,))]
