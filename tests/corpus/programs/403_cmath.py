import cmath
import math
from typing import List, Tuple


def all_functions(z: complex) -> List[complex]:
    return [cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.log(z, 2), cmath.log10(z),
            cmath.sin(z), cmath.cos(z), cmath.tan(z), cmath.asin(z), cmath.acos(z),
            cmath.atan(z), cmath.sinh(z), cmath.cosh(z), cmath.tanh(z), cmath.asinh(z),
            cmath.acosh(z), cmath.atanh(z)]


def reals(x: float) -> List[complex]:
    return [cmath.sqrt(x), cmath.log(x), cmath.exp(x), cmath.acos(x)]


def polar_rect(z: complex) -> Tuple[float, Tuple[float, float], complex]:
    r, phi = cmath.polar(z)
    return (cmath.phase(z), cmath.polar(z), cmath.rect(r, phi))


def predicates(z: complex, w: complex) -> List[bool]:
    return [cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z), cmath.isclose(z, w),
            cmath.isclose(z, w, rel_tol=0.5), cmath.isclose(z, w, abs_tol=1.0)]


def constants() -> List[complex]:
    return [cmath.pi + cmath.e * 1j, cmath.infj, cmath.nanj, complex(cmath.inf, cmath.nan),
            cmath.tau + 0j, cmath.rect(1.0, math.pi)]


def domain(z: complex) -> complex:
    return cmath.log(z)


def overflow(z: complex) -> complex:
    return cmath.exp(z)


CASES = [
    ("all_functions", (1 + 2j,)), ("all_functions", (-0.5 + 0.25j,)), ("all_functions", (0.3 - 0j,)),
    ("all_functions", (complex(-2.0, -0.0),)),
    ("reals", (2.0,)), ("reals", (-4.0,)), ("reals", (0.5,)),
    ("polar_rect", (3 + 4j,)), ("polar_rect", (complex(-1.0, -0.0),)), ("polar_rect", (0j,)),
    ("predicates", (1 + 1j, 1 + 1.0000000001j)), ("predicates", (complex(float("nan"), 0.0), 0j)),
    ("predicates", (complex(float("inf"), 1.0), 2 + 1j)),
    ("constants", ()), ("domain", (0j,)), ("overflow", (1000 + 1j,)),
]
