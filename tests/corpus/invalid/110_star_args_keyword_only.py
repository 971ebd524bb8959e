# error: TypeCheckError
# line: 10
# match: unexpected keyword argument 'scal'

def total(*args: int, scale: int = 1) -> int:
    return len(args) * scale


def f(n: int) -> int:
    return total(n, scal=2)


ENTRY = "f"
