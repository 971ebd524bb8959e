# error: TypeCheckError
# line: 10
# match: '<=' not supported between instances of 'complex' and 'float'


def f(z: complex, lo: float) -> bool:
    if z.real > lo:
        return True
    w = z * z
    return w <= lo


ENTRY = "f"
