from typing import List, Union


def describe(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return "int " + str(x + 1)
    return "str " + x.upper()


def total(xs: List[Union[int, float]]) -> float:
    s = 0.0
    for x in xs:
        if isinstance(x, int):
            s += x * 2
        else:
            s += x
    return s


def kinds(x: Union[int, str, None]) -> str:
    if x is None:
        return "none"
    if isinstance(x, str):
        return "str"
    return "int"


CASES = [("describe", (41,)), ("describe", ("ab",)), ("total", ([1, 2.5, 3],)),
         ("kinds", (None,)), ("kinds", ("a",)), ("kinds", (3,))]
