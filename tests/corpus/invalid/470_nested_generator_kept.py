# error: UnsupportedError
# line: 9
# match: is a generator function: iterate its call where it is made


def f(n: int) -> int:
    def gen():
        yield n
    g = gen()
    return next(g)


ENTRY = "f"
