# error: ParseError
# line: 8
# match: case pattern


def f(xs: List[int]) -> int:
    match xs:
        case [(1 | 2) as a, b]:
            return a + b
    return 0


ENTRY = "f"
