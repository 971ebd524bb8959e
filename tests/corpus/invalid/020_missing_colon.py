# error: ParseError
# line: 5
# match: expected ':'

def f(x: int) -> int
    return x


ENTRY = "f"
