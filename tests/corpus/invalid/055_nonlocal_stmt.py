# error: UnsupportedError
# line: 7
# match: nonlocal

def f(x: int) -> int:
    def g() -> int:
        nonlocal x
        return x
    return g()


ENTRY = "f"
