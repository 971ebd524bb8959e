# error: ParseError
# line: 7
# match: unexpected indent

def f(x: int) -> int:
    y = x
        z = y
    return z


ENTRY = "f"
