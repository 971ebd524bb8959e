# error: NameResolutionError
# line: 6
# match: method

def f(s: str) -> str:
    return s.shout()


ENTRY = "f"
