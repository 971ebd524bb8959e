# error: TypeCheckError
# line: 9
# match: float() argument must be a string or a real number, not 'complex'
import cmath


def f(z: complex) -> float:
    w = cmath.sqrt(z)
    return float(w)


ENTRY = "f"
