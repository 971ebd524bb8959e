# error: UnsupportedError
# line: 10
# match: Enum classes cannot be extended


class Color(Enum):
    RED = 1


class Shade(Color):
    DARK = 2


def f(n: int) -> int:
    return Shade.DARK.value


ENTRY = "f"
