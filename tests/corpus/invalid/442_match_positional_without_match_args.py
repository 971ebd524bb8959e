# error: UnsupportedError
# line: 15
# match: positional sub-pattern


class P:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y


def f(x: int) -> int:
    p = P(x, 2)
    match p:
        case P(0, yy):
            return yy
    return 1


ENTRY = "f"
