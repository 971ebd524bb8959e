# error: UnsupportedError
# line: 8
# match: multiple starred names


def f(xs: List[int]) -> int:
    match xs:
        case [*a, 0, *b]:
            return len(a) + len(b)
    return 0


ENTRY = "f"
