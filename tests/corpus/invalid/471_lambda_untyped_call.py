# error: TypeCheckError
# line: 11
# match: cannot tell the parameter types of this lambda


def apply(fn, xs: List[int]) -> int:
    return fn(xs[0] + 1)


def f(xs: List[int]) -> int:
    return apply(lambda v: v * 2, xs)


ENTRY = "f"
