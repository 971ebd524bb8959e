# error: TypeCheckError
# line: 11
# match: missing 1 required keyword-only argument: 'c'


def pack(a: int, b: int = 1, *, c: int, d: int = 4) -> List[int]:
    return [a, b, c, d]


def f(n: int) -> List[int]:
    return pack(n, 2)


ENTRY = "f"
