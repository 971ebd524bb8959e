# error: UnsupportedError
# line: 6
# match: literal format

def f(fmt: str, x: int) -> str:
    return fmt.format(x)


ENTRY = "f"
