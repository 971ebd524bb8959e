# error: TypeCheckError
# line: 10
# match: set.add(): argument 'x' must be int, not str


def f(xs: list[int]) -> int:
    seen = set()
    for x in xs:
        seen.add(x)
    seen.add("done")
    return len(seen)


ENTRY = "f"
