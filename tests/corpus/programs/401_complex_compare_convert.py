from typing import List, Tuple


def compare(a: complex, b: complex, x: float, n: int) -> List[bool]:
    return [a == b, a != b, a == x, x == a, a != n, n == a, a == a, 1j == 1j, bool(a), not a,
            True == a]


def exact(z: complex, n: int) -> bool:
    return z == n


def parts(z: complex) -> Tuple[float, float, complex, float]:
    return (z.real, z.imag, z.conjugate(), abs(z))


def construct(x: float, y: float, n: int, s: str) -> List[complex]:
    return [complex(x, y), complex(n), complex(x), complex(), complex(n, n), complex(True),
            complex(s), complex(real=x, imag=y), complex(1j), complex(x, -0.0)]


def construct_mixed(x: complex, y: complex, f: float, n: int) -> List[complex]:
    return [complex(x, y), complex(f, y), complex(x, f), complex(n, y), complex(y, n),
            complex(x, -0.0), complex(-0.0, y), complex(imag=y, real=x)]


def bad_parse(s: str) -> complex:
    return complex(s)


def truthy(z: complex) -> str:
    if z:
        return "yes"
    return "no"


def annotated(n: int) -> complex:
    z: complex = complex(n)
    z += 2.5
    z *= 1j
    return z


def default(z: complex = 1 - 1j, k: complex = 2) -> complex:
    return z * k



def largest(a: complex, b: complex) -> complex:
    return max(a, b)


def ordered(zs: List[complex]) -> List[complex]:
    return sorted(zs)

CASES = [
    ("compare", (1 + 2j, 1 + 2j, 1.0, 1)), ("compare", (1 + 0j, 2j, 1.0, 1)),
    ("compare", (complex(float("nan"), 0.0), 0j, float("nan"), 0)),
    ("exact", (complex(2.0 ** 62, 0.0), 2 ** 62 + 1)), ("exact", (complex(2.0 ** 62, 0.0), 2 ** 62)),
    ("parts", (3 - 4j,)), ("parts", (complex(-0.0, float("inf")),)), ("parts", (1e308 + 1e308j,)),
    ("construct", (1.5, -2.0, 7, "1+2j")), ("construct", (-0.0, 0.0, -3, " -1.5e3J ")),
    ("construct_mixed", (1 + 2j, -1j, 0.5, 3)),
    ("construct_mixed", (complex(-0.0, -0.0), complex(0.0, -0.0), -0.0, 0)),
    ("bad_parse", ("1+2i",)), ("bad_parse", ("j",)),
    ("truthy", (0j,)), ("truthy", (complex(0.0, -0.0),)), ("truthy", (1e-300j,)),
    ("annotated", (3,)), ("default", ()), ("default", (1j,)), ("default", (1j, 1j)),
    ("largest", (1j, 2j)), ("ordered", ([1j, 2j],)), ("ordered", ([1j],)),
]
