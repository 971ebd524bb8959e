# error: TypeCheckError
# line: 7
# match: List[str]


def f(xs: List[int]) -> List[int]:
    xs[:1] = ["a"]
    return xs


ENTRY = "f"
