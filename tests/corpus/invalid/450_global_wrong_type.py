# error: TypeCheckError
# line: 10
# match: module-level variable 'COUNT'

COUNT = 0


def f(x: int) -> int:
    global COUNT
    COUNT = "many"
    return x


ENTRY = "f"
