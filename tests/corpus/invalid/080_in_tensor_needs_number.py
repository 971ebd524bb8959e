# error: TypeCheckError
# line: 8
# match: 'in <Tensor>' needs a number or a tensor on the left, not str


def f(x: Tensor) -> bool:
    s = "a"
    return s in x


ENTRY = "f"
