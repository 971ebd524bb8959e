# error: UnsupportedError
# line: 8
# match: a dict with Tensor keys is not supported


def f(xs: List[Tensor]) -> int:
    seen = 0
    firsts = {x: i for i, x in enumerate(xs)}
    return seen + len(firsts)


ENTRY = "f"
