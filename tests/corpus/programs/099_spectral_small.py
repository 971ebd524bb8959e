import math
from typing import List


def eval_a(i: int, j: int) -> float:
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def mul_av(v: List[float]) -> List[float]:
    n = len(v)
    return [sum([eval_a(i, j) * v[j] for j in range(n)]) for i in range(n)]


def mul_atv(v: List[float]) -> List[float]:
    n = len(v)
    return [sum([eval_a(j, i) * v[j] for j in range(n)]) for i in range(n)]


def spectral(n: int) -> float:
    u = [1.0] * n
    v = [0.0] * n
    for _ in range(5):
        v = mul_atv(mul_av(u))
        u = mul_atv(mul_av(v))
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv)


CASES = [("spectral", (10,)), ("spectral", (3,))]
