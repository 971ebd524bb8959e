# error: TypeCheckError
# line: 11
# match: the items of the list spread into it are str


def weigh(a: int, b: int = 10) -> int:
    return a + b


def f(xs: List[str]) -> int:
    return weigh(*xs)


ENTRY = "f"
