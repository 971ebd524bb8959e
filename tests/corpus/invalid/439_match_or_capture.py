# error: UnsupportedError
# line: 10
# match: or-pattern


def f(xs: List[int]) -> int:
    match xs:
        case [a]:
            return a
        case [a, 0] | [0, a]:
            return a
        case _:
            return -1


ENTRY = "f"
