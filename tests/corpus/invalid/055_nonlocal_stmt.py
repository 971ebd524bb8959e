# error: ParseError
# line: 6
# match: nonlocal declaration not allowed

def f(x: int) -> int:
    nonlocal x
    return x


ENTRY = "f"
