# error: ParseError
# line: 6
# match: match

def f(x: int) -> int:
    match x:
        case 1:
            return 1
    return 0


ENTRY = "f"
