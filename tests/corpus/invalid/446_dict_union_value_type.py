# error: TypeCheckError
# line: 8
# match: Dict[str, str]


def f(d: Dict[str, int]) -> Dict[str, int]:
    extra = {"a": "x"}
    return d | extra


ENTRY = "f"
