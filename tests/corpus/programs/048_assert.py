def checked_sqrt(x: float) -> float:
    assert x >= 0, "x must be non-negative"
    return x ** 0.5


def checked(n: int) -> int:
    assert n != 13
    return n


def assert_message(n: int) -> int:
    assert n < 10, f"{n} is too big"
    return n * 2


CASES = [("checked_sqrt", (4.0,)), ("checked_sqrt", (-1.0,)), ("checked", (13,)),
         ("checked", (12,)), ("assert_message", (50,))]
