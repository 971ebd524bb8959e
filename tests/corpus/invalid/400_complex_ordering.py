# error: TypeCheckError
# line: 8
# match: '<' not supported between instances of 'complex' and 'complex'


def smaller(a: complex, b: complex) -> bool:
    c = a + b
    return a < c


ENTRY = "smaller"
