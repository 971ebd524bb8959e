# error: TypeCheckError
# line: 10
# match: cannot add


def f(xs: List[str]) -> int:
    match xs:
        case [first, *rest]:
            n = len(rest)
            return first + n
    return 0


ENTRY = "f"
