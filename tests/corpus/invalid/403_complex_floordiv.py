# error: TypeCheckError
# line: 8
# match: unsupported operand type(s) for //: 'complex' and 'int'


def f(z: complex) -> complex:
    w = z * 2
    return w // 2


ENTRY = "f"
