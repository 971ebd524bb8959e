# error: TypeCheckError
# line: 7
# match: dict expected at most 1 argument, got 2


def f(a: Dict[str, int], b: Dict[str, int]) -> Dict[str, int]:
    return dict(a, b)


ENTRY = "f"
