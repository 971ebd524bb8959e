from typing import Dict, List, Set


class MyError(ValueError):
    pass


def made_not_raised(n: int) -> str:
    e = MyError("x", n)
    k = KeyError(n)
    return str(e) + "|" + repr(k) + "|" + str(Exception())


def raised_later(n: int) -> int:
    errs = [ValueError("small"), MyError("big")]
    if n < 0:
        raise errs[0]
    if n > 10:
        raise errs[1]
    return n


def caught(n: int) -> str:
    e = MyError("m", n)
    try:
        if n % 2 == 0:
            raise e
    except ValueError as got:
        return "caught " + str(got)
    return "none"


def starred_set(xs: List[int], s: str) -> List[int]:
    a = {*xs, 5}
    b: Set[str] = {*s, *"xy"}
    c = {*(1, 2), *{3: 4}, *range(2), *a}
    return sorted(a) + [len(b)] + sorted(c)


def starred_dict_keys(d: Dict[str, int]) -> List[str]:
    return sorted({*d, "z"})


CASES = [("made_not_raised", (3,)), ("raised_later", (5,)), ("raised_later", (-1,)),
         ("raised_later", (11,)), ("caught", (2,)), ("caught", (3,)),
         ("starred_set", ([1, 2, 2], "hello")), ("starred_set", ([], "")),
         ("starred_dict_keys", ({"b": 1, "a": 2},))]
