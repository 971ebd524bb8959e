# error: UnsupportedError
# line: 5
# match: *args

def f(*args: int) -> int:
    return 0


ENTRY = "f"
