# error: ParseError
# line: 5
# match: duplicate argument 'a'

def f(a: int, a: int) -> int:
    return a


ENTRY = "f"
