# error: TypeCheckError
# line: 8
# match: complex


def f(xs: List[float], z: complex) -> List[float]:
    ys = [x for x in xs]
    ys.append(z)
    return ys


ENTRY = "f"
