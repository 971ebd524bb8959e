# error: TypeCheckError
# line: 7
# match: sets a str key in a dict of Dict[int, int]


def f(a: Dict[int, int]) -> Dict[int, int]:
    return dict(a, b=2)


ENTRY = "f"
