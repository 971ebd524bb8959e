# error: NameResolutionError
# line: 8
# match: undefined

def f(c: bool) -> int:
    if c:
        y = 1
    return y


ENTRY = "f"
