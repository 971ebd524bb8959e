# error: ParseError
# line: 5
# match: named arguments must follow bare *

def f(a: int, *) -> int:
    return a


ENTRY = "f"
