# error: TypeCheckError
# line: 12
# match: an item of type str


def total(xs: Tuple[int, ...]) -> int:
    return len(xs)


def f(n: int) -> int:
    a = total((n, n))
    return a + total((n, "x"))


ENTRY = "f"
