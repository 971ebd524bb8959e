# error: TypeCheckError
# line: 8
# match: can only assign a list to a slice


def f(xs: List[int]) -> List[int]:
    ys = xs
    ys[1:2] = 5
    return ys


ENTRY = "f"
