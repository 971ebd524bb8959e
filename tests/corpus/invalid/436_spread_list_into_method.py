# error: UnsupportedError
# line: 12
# match: supported in calls of the program's own functions only

class P:
    def m(self, a: int, b: int) -> int:
        return a - b


def f(xs: List[int]) -> int:
    p = P()
    return p.m(*xs)


ENTRY = "f"
