# error: NameResolutionError
# line: 11
# match: has no member 'PURPLE'


class Color(Enum):
    RED = 1


def f(n: int) -> int:
    return Color.PURPLE.value


ENTRY = "f"
