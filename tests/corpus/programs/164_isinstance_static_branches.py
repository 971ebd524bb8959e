from typing import List, Union


def count(x: int) -> int:
    if isinstance(x, str):
        return len(x)
    return x + 1


def length(x: str) -> int:
    if not isinstance(x, str):
        return x + 1
    elif isinstance(x, int) or isinstance(x, float):
        return x * 2
    return len(x) if isinstance(x, str) else x.upper()


def head(x: List[int]) -> int:
    if isinstance(x, list) and len(x) > 0:
        return x[0]
    return -1 if isinstance(x, dict) else -2


def show(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return str(x + 1)
    return x


def both(a: int) -> str:
    return show(a) + show("s")


CASES = [("count", (3,)), ("length", ("abc",)), ("head", ([5],)), ("head", ([],)),
         ("both", (3,))]
