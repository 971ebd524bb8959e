# error: TypeCheckError
# line: 17
# match: container elements have different types


class A:
    def __init__(self, x: int):
        self.x = x


class B:
    def __init__(self, x: int):
        self.x = x


def f(x: int) -> int:
    items = [A(x), B(x)]
    return len(items)


ENTRY = "f"
