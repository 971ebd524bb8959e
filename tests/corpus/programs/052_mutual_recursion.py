def is_even(n: int) -> bool:
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n: int) -> bool:
    if n == 0:
        return False
    return is_even(n - 1)


def hofstadter_f(n: int) -> int:
    return 1 if n == 0 else n - hofstadter_m(hofstadter_f(n - 1))


def hofstadter_m(n: int) -> int:
    return 0 if n == 0 else n - hofstadter_f(hofstadter_m(n - 1))


CASES = [("is_even", (10,)), ("is_even", (7,)), ("is_odd", (7,)), ("hofstadter_f", (12,)),
         ("hofstadter_m", (12,))]
