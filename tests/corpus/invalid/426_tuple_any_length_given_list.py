# error: TypeCheckError
# line: 11
# match: is Tuple[int, ...], but is given a value of type List[int]


def total(xs: Tuple[int, ...]) -> int:
    return sum(xs)


def f(n: int) -> int:
    return total([n, n])


ENTRY = "f"
