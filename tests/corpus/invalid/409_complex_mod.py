# error: TypeCheckError
# line: 7
# match: unsupported operand type(s) for %: 'complex' and 'int'


def f(z: complex) -> complex:
    return z % 2


ENTRY = "f"
