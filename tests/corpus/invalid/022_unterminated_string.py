# error: ParseError
# line: 6
# match: unterminated string

def f(x: int) -> str:
    return "abc


ENTRY = "f"
