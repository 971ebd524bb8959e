# error: TypeCheckError
# line: 11
# match: argument 'value' of Color() has type int


class Color(Enum):
    RED = 1


def f(s: str) -> str:
    return Color(s).name


ENTRY = "f"
