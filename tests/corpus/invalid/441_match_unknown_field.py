# error: UnsupportedError
# line: 15
# match: has no field 'z'


class P:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y


def f(x: int) -> int:
    p = P(x, 2)
    match p:
        case P(x=0, z=zz):
            return zz
    return 1


ENTRY = "f"
