# error: TypeCheckError
# line: 9
# match: exception causes must derive from BaseException


def f(n: int) -> int:
    if n > 0:
        return n
    raise ValueError("bad") from n


ENTRY = "f"
