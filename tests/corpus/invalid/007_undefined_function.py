# error: NameResolutionError
# line: 6
# match: not defined

def f(x: int) -> int:
    return helper(x)


ENTRY = "f"
