# error: UnsupportedError
# line: 9
# match: @classmethod is not supported


class P:
    def __init__(self, a: int):
        self.a = a
    @classmethod
    def make(cls, a: int) -> "P":
        return cls(a)


def f(n: int) -> int:
    return P.make(n).a


ENTRY = "f"
