from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

@dataclass
class Point:
    x: int
    y: int

def g(xs: List[Union[int, str]]) -> str:
    match xs:
        case [int(n), str(s)]:
            return f"{n}{s}"
        case [str(s), *_]:
            return "starts with " + s
        case _:
            return "?"

def h(p: Optional[Point]) -> int:
    match p:
        case Point(x=0, y=yy):
            return yy
        case None:
            return -1
        case _:
            return 99

def hh(ps: List[Optional[Point]]) -> int:
    match ps:
        case [Point(x=a), None]:
            return a
        case _:
            return 0

def k(x: float) -> str:
    match x:
        case 1:
            return "one"
        case 2.5:
            return "two and half"
    return "other"

def b(x: bool) -> str:
    match x:
        case True:
            return "T"
        case False:
            return "F"
    return "unreachable"

def mkh(x: int, y: int) -> int:
    return h(Point(x, y))

def mkhh(x: int, none: bool) -> int:
    return hh([Point(x, 1), None if none else Point(1, 1)])

CASES = [("g", ([1, "a"],)), ("g", (["q", 1],)), ("g", ([1, 2],)), ("mkh", (0, 5)), ("mkh", (1, 5)),
         ("h", (None,)), ("mkhh", (3, True)), ("mkhh", (3, False)), ("k", (1.0,)), ("k", (2.5,)), ("k", (3.0,)),
         ("b", (True,)), ("b", (False,))]
