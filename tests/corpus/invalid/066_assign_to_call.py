# error: ParseError
# line: 6
# match: invalid syntax

def f(x: int) -> int:
    f(x) = 3
    return x


ENTRY = "f"
