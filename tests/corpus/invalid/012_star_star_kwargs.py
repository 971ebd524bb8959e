# error: TypeCheckError
# line: 10
# match: keywords must be strings

def g(**kwargs: int) -> int:
    return len(kwargs)


def f(n: int) -> int:
    return g(**{1: n})


ENTRY = "f"
