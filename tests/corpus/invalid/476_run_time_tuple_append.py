# error: TypeCheckError
# line: 8
# match: Tuple[int, ...] has no method 'append'


def f(xs: List[int]) -> int:
    t = tuple(xs)
    t.append(1)
    return len(t)


ENTRY = "f"
