# error: UnsupportedError
# line: 16
# match: multiple inheritance


class A:
    def a(self) -> int:
        return 1


class B:
    def b(self) -> int:
        return 2


class C(A, B):
    pass


def f(x: int) -> int:
    return C().a()


ENTRY = "f"
