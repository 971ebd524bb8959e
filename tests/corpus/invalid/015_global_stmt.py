# error: UnsupportedError
# line: 9
# match: global

COUNTS = [0]


def f(x: int) -> int:
    global COUNTS
    COUNTS = [x]
    return x


ENTRY = "f"
