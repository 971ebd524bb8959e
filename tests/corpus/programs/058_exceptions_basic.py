def safe_div(a: int, b: int) -> str:
    try:
        result = a // b
        msg = f"ok {result}"
    except ZeroDivisionError:
        msg = "division by zero"
    return msg


def parse_int(s: str) -> int:
    try:
        return int(s)
    except ValueError as e:
        return -len(str(e))


def raise_custom(n: int) -> int:
    if n < 0:
        raise ValueError("negative: " + str(n))
    if n == 0:
        raise KeyError("zero")
    return n


CASES = [("safe_div", (7, 2)), ("safe_div", (1, 0)), ("parse_int", ("12",)),
         ("parse_int", ("x1",)), ("raise_custom", (-2,)), ("raise_custom", (0,)),
         ("raise_custom", (3,))]
