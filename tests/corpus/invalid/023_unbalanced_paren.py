# error: ParseError
# line: 6
# match: never closed

def f(x: int) -> int:
    return (x + 1


ENTRY = "f"
