# error: TypeCheckError
# line: 10
# match: keyword argument 'label' of g()'s **kwargs

def g(x: int, **kw: int) -> int:
    return x + len(kw)


def f(n: int) -> int:
    return g(n, size=2, label="big")


ENTRY = "f"
