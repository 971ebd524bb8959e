# error: UnsupportedError
# line: 7
# match: must be an int, float, str, bool or complex literal


class Color(Enum):
    RED = (255, 0, 0)


def f(n: int) -> str:
    return Color.RED.name


ENTRY = "f"
