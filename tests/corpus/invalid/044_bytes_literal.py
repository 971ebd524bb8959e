# error: UnsupportedError
# line: 6
# match: bytes

def f(x: int) -> int:
    b = b"raw"
    return x


ENTRY = "f"
