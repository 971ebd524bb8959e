from typing import List


def arith(a: complex, b: complex) -> List[complex]:
    return [a + b, a - b, a * b, a / b, -a, +a, a ** b, b ** a]


def mixed(z: complex, x: float, n: int, flag: bool) -> List[complex]:
    return [z + x, x + z, z - n, n - z, z * flag, flag * z, z / x, n / z,
            z ** n, n ** z, x ** z, z ** x, 1 + 2j, 2.5j * n, 1j * 1j]


def powers(z: complex, n: int) -> List[complex]:
    out: List[complex] = []
    for k in range(-n, n + 1):
        out.append(z ** k)
    return out


def specials(z: complex) -> List[complex]:
    return [z * 0j, z * complex(float("inf"), 0.0), z + complex(float("nan"), 1.0), -z,
            z - z, 0j - z, -0j, -(0j), 0j * -1]


def divide(a: complex, b: complex) -> complex:
    return a / b


def power(a: complex, b: complex) -> complex:
    return a ** b



def builtins_(zs: List[complex], n: int) -> List[complex]:
    out = [sum(zs), pow(zs[0], n), pow(zs[0], 0.5), pow(2, zs[0])]
    out.append(sum([z * z for z in zs]))
    if zs[0] in zs:
        out.append(zs[-1])
    return out


def accumulate(n: int) -> complex:
    z = 0j
    w = complex(1, 1)
    for k in range(n):
        z += w ** k / (k + 1)
        w *= 1j
    return z

CASES = [
    ("arith", (1 + 2j, 3 - 4j)), ("arith", (0.5j, -1.5 + 0.25j)), ("arith", (1e300 + 1e300j, 2j)),
    ("mixed", (1 + 2j, 0.5, 3, True)), ("mixed", (-2.5 - 0.5j, -3.0, -2, False)),
    ("powers", (1 + 1j, 4)), ("powers", (0.5 - 2j, 3)),
    ("specials", (1 + 2j,)), ("specials", (complex(-0.0, -0.0),)),
    ("divide", (1 + 1j, 0j)), ("divide", (0j, 0j)), ("divide", (1j, 2 + 0j)),
    ("power", (0j, -1 + 0j)), ("power", (0j, 1j)), ("power", (0j, 0j)), ("power", (2j, 0.5 + 0j)),
    ("power", (1e200 + 1e200j, 3 + 0j)),
    ("builtins_", ([1 + 1j, 2 - 0.5j, -3j], 3)), ("builtins_", ([complex(-0.0, -0.0)], -2)),
    ("accumulate", (10,)), ("accumulate", (0,)),
]
