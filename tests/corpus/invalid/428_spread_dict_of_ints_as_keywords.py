# error: TypeCheckError
# line: 11
# match: f(**d) needs a Dict[str, V], not Dict[int, int]


def weigh(a: int, b: int = 10) -> int:
    return a + b


def f(d: Dict[int, int]) -> int:
    return weigh(**d)


ENTRY = "f"
