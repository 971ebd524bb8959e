# error: TypeCheckError
# line: 7
# match: str


def inc(x: Any) -> Any:
    return x + 1


def g(s: str) -> str:
    return inc(s)


ENTRY = "g"
