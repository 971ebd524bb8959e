# error: TypeCheckError
# line: 7
# match: list element has type int, but is given a value of type float


def f(n: int) -> List[int]:
    xs = torch.jit.annotate(List[int], [1.5])
    return xs


ENTRY = "f"
