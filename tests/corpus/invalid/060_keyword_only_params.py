# error: UnsupportedError
# line: 5
# match: keyword-only

def f(x: int, *, y: int = 1) -> int:
    return x + y


ENTRY = "f"
