# error: TypeCheckError
# line: 7
# match: int() argument must be a string, a bytes-like object or a real number, not 'complex'


def f(z: complex) -> int:
    return int(z)


ENTRY = "f"
