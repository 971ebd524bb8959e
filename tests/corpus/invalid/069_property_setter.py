# error: UnsupportedError
# line: 13
# match: property setters

class P:
    def __init__(self, a: int):
        self.a = a

    @property
    def double(self) -> int:
        return self.a * 2

    @double.setter
    def double(self, v: int):
        self.a = v // 2


def f(n: int) -> int:
    return P(n).double


ENTRY = "f"
