# error: TypeCheckError
# line: 12
# match: cannot compare Color and Color with '<'


class Color(Enum):
    RED = 1
    GREEN = 2


def f(n: int) -> bool:
    return Color(n) < Color.GREEN


ENTRY = "f"
