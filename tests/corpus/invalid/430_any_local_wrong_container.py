# error: TypeCheckError
# line: 7
# match: is annotated Dict[str, Any], but is given a value of type List[int]


def f(n: int) -> int:
    d: Dict[str, Any] = [n, n]
    return len(d)


ENTRY = "f"
