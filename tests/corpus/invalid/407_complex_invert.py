# error: TypeCheckError
# line: 8
# match: bad operand type for unary ~: complex


def f(n: int) -> complex:
    z = complex(n, 1)
    return ~z


ENTRY = "f"
