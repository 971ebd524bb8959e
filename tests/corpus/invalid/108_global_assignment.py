# error: UnsupportedError
# line: 9
# match: assigning the module-level variable 'COUNT'

COUNT = 0


def f(n: int) -> int:
    global COUNT
    COUNT += n
    return COUNT


ENTRY = "f"
