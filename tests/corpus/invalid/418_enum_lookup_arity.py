# error: TypeCheckError
# line: 11
# match: takes exactly one argument


class Color(Enum):
    RED = 1


def f(n: int) -> str:
    return Color(n, 2).name


ENTRY = "f"
