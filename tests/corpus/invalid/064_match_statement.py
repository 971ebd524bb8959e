# error: ParseError
# line: 7
# match: expected 'case'

def f(x: int) -> int:
    match x:
        pass
    return 0


ENTRY = "f"
