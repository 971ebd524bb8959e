# error: TypeCheckError
# line: 11
# match: cannot assign 'RED' of the class 'Color'


class Color(Enum):
    RED = 1


def f(n: int) -> int:
    Color.RED = 3
    return n


ENTRY = "f"
