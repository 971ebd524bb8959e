# error: UnsupportedError
# line: 5
# match: **kwargs

def f(x: int, **kw: int) -> int:
    return x


ENTRY = "f"
