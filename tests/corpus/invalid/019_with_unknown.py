# error: UnsupportedError
# line: 6
# match: with

def f(x: int) -> int:
    with open("x") as fh:
        pass
    return x


ENTRY = "f"
