# error: UnsupportedError
# line: 9
# match: may not define __init__


class Color(Enum):
    RED = 1

    def __init__(self, v: int):
        self.v = v


def f(n: int) -> int:
    return Color.RED.value


ENTRY = "f"
