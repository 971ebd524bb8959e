# error: UnsupportedError
# line: 6
# match: may only hold a docstring, field annotations and an __init__

class MyError(ValueError):
    def hint(self) -> str:
        return "try again"


def f(n: int) -> int:
    if n < 0:
        raise MyError("negative")
    return n


ENTRY = "f"
