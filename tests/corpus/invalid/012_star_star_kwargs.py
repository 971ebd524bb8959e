# error: UnsupportedError
# line: 5
# match: **kwargs

def f(**kwargs: int) -> int:
    return 0


ENTRY = "f"
