# error: UnsupportedError
# line: 10
# match: may only hold a docstring, field annotations and an __init__


class Coded(Exception):
    def __init__(self, code: int):
        self.code = code

    def __str__(self) -> str:
        return "code " + str(self.code)


def f(n: int) -> str:
    try:
        raise Coded(n)
    except Coded as e:
        return str(e)


ENTRY = "f"
