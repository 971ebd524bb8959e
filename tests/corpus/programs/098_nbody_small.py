import math
from typing import List


def energy(x: List[float], v: List[float], m: List[float]) -> float:
    e = 0.0
    for i in range(len(x)):
        e += 0.5 * m[i] * v[i] * v[i]
        for j in range(i + 1, len(x)):
            d = abs(x[i] - x[j])
            e -= m[i] * m[j] / d
    return e


def simulate(steps: int) -> float:
    x = [0.0, 1.0, 3.0]
    v = [0.0, 0.5, -0.2]
    m = [10.0, 1.0, 0.5]
    dt = 0.01
    for _ in range(steps):
        for i in range(3):
            for j in range(3):
                if i == j:
                    continue
                d = x[j] - x[i]
                a = m[j] * d / (abs(d) ** 3)
                v[i] += a * dt
        for i in range(3):
            x[i] += v[i] * dt
    return energy(x, v, m)


CASES = [("simulate", (10,)), ("simulate", (0,))]
