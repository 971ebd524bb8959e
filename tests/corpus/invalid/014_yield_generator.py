# error: UnsupportedError
# line: 7
# match: yield

def f(n: int) -> int:
    for i in range(n):
        yield i
    return 0


ENTRY = "f"
