# error: UnsupportedError
# line: 10
# match: needs a first parameter for the class


class P:
    def __init__(self, a: int):
        self.a = a
    @classmethod
    def make() -> "P":
        return P(1)


def f(n: int) -> int:
    return P.make().a


ENTRY = "f"
