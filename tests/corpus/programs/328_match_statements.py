from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple, Union

@dataclass
class Point:
    x: int
    y: int

class Box:
    __match_args__ = ("w", "h")
    def __init__(self, w: int, h: int):
        self.w = w
        self.h = h

def f(x: int) -> str:
    match x:
        case 1:
            return "one"
        case 2 | 3:
            return "few"
        case -1:
            return "neg"
        case n if n > 100:
            return "big " + str(n)
        case _:
            return "many"

def seq(xs: List[int]) -> str:
    match xs:
        case []:
            return "empty"
        case [a]:
            return f"one {a}"
        case [a, b] if a == b:
            return "pair of same"
        case [first, *rest, last]:
            return f"{first} {rest} {last}"
        case _:
            return "two"

def tup(t: Tuple[int, str]) -> str:
    match t:
        case (0, s):
            return "zero " + s
        case (n, "x") as whole:
            return f"x {n} {whole}"
        case (n, *more):
            return f"{n} {more}"

def pt(p: Point) -> str:
    match p:
        case Point(x=0, y=0):
            return "origin"
        case Point(0, yy):
            return f"on y {yy}"
        case Point(x=xx, y=0):
            return f"on x {xx}"
        case Point():
            return "elsewhere"

def opt(v: Optional[int]) -> str:
    match v:
        case None:
            return "none"
        case 0:
            return "zero"
        case int(n):
            return f"int {n}"

def uni(v: Union[int, str, List[int]]) -> str:
    match v:
        case int(n) if n < 0:
            return "negative"
        case int():
            return "int"
        case str(s):
            return "str " + s
        case list(xs):
            return f"list {len(xs)}"

def mp(d: Dict[str, int]) -> str:
    match d:
        case {"a": 1, **rest}:
            return f"a1 {rest}"
        case {"b": b}:
            return f"b {b}"
        case {}:
            return "other"

def loop(cmds: List[str]) -> List[str]:
    out: List[str] = []
    i = 0
    while True:
        match cmds[i]:
            case "quit":
                break
            case "skip":
                i += 2
                continue
            case c:
                out.append(c.upper())
        i += 1
    return out

def box(b: Box) -> int:
    match b:
        case Box(w, h) if w == h:
            return w * w
        case Box(w, h=hh):
            return w + hh

def mk(x: int, y: int) -> str:
    return pt(Point(x, y))

def mkbox(w: int, h: int) -> int:
    return box(Box(w, h))

CASES = [("f", (1,)), ("f", (3,)), ("f", (-1,)), ("f", (500,)), ("f", (7,)),
         ("seq", ([],)), ("seq", ([4],)), ("seq", ([2, 2],)), ("seq", ([1, 2, 3, 4],)), ("seq", ([1, 2],)),
         ("tup", ((0, "a"),)), ("tup", ((5, "x"),)), ("tup", ((5, "y"),)),
         ("mk", (0, 0)), ("mk", (0, 3)), ("mk", (4, 0)), ("mk", (4, 4)),
         ("opt", (None,)), ("opt", (0,)), ("opt", (9,)),
         ("uni", (-3,)), ("uni", (3,)), ("uni", ("hi",)), ("uni", ([1, 2],)),
         ("mp", ({"a": 1, "z": 2},)), ("mp", ({"b": 7},)), ("mp", ({"a": 2},)),
         ("loop", (["a", "skip", "zz", "b", "quit", "c"],)), ("mkbox", (3, 3)), ("mkbox", (2, 5))]
