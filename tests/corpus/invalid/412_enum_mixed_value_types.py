# error: UnsupportedError
# line: 7
# match: values of different types


class Color(Enum):
    RED = 1
    GREEN = "green"


def f(n: int) -> int:
    return Color.RED.value + n


ENTRY = "f"
