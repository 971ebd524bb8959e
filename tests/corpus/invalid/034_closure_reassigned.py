# error: UnsupportedError
# line: 8
# match: captures

def f(x: int) -> int:
    k = 1

    def g(y: int) -> int:
        return y + k
    k = 2
    return g(x)


ENTRY = "f"
