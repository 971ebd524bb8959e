# error: UnsupportedError
# line: 10
# match: may inherit from one user class

class A:
    def __init__(self):
        self.v = 1


class B(dict):
    def __init__(self):
        self.v = 2


def f(x: int) -> int:
    return B().v + x


ENTRY = "f"
