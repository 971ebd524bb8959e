# error: UnsupportedError
# line: 9
# match: may only call super().__init__(...) once and set fields


class Bad(Exception):
    def __init__(self, code: int):
        super().__init__("bad")
        print(code)


def f(n: int) -> int:
    raise Bad(n)


ENTRY = "f"
