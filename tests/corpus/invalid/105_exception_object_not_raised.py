# error: UnsupportedError
# line: 10
# match: MyError(...) can only be raised

class MyError(ValueError):
    pass


def f(n: int) -> int:
    e = MyError("x")
    return n


ENTRY = "f"
