# error: UnsupportedError
# line: 9
# match: global

COUNT = 0


def f(x: int) -> int:
    global COUNT
    COUNT = x
    return x


ENTRY = "f"
