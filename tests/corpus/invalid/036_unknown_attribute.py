# error: NameResolutionError
# line: 12
# match: attribute

class P:
    def __init__(self, x: int):
        self.x = x


def f(v: int) -> int:
    p = P(v)
    return p.z


ENTRY = "f"
