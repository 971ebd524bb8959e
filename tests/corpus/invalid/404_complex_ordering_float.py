# error: TypeCheckError
# line: 7
# match: '>=' not supported between instances of 'float' and 'complex'


def f(x: float, z: complex) -> bool:
    return x >= z


ENTRY = "f"
