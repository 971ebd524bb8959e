# error: NameResolutionError
# line: 12
# match: Enum members are constants


class Color(Enum):
    RED = 1


def f(n: int) -> int:
    c = Color.RED
    c.value = n
    return c.value


ENTRY = "f"
