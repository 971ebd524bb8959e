# error: TypeCheckError
# line: 10
# match: module-level variable 'COUNT'

COUNT = 0


def f(n: int) -> int:
    global COUNT
    COUNT += n / 2
    return COUNT


ENTRY = "f"
