"""@dataclass classes, as TorchScript's dataclass tests script them."""

CASES = [
    ('''
from dataclasses import dataclass, field


@dataclass
class Pt:
    x: float
    y: float = 0.0
    names: List[str] = field(default_factory=list)

    def norm(self) -> float:
        return math.sqrt(self.x * self.x + self.y * self.y)


def f(a: float, b: float):
    p = Pt(a, b)
    p.names.append("p")
    return p.norm(), p == Pt(a, b, ["p"]), repr(p), Pt(a) == Pt(a, 0.0)
''', [(3.0, 4.0), (1.0, 0.0)]),
    ('''
from dataclasses import dataclass


@dataclass(order=True)
class Ver:
    major: int
    minor: int = 0


def f(a: int, b: int):
    vs = [Ver(a, b), Ver(b), Ver(a)]
    return [str(v) for v in sorted(vs)], Ver(a) < Ver(b), max(vs).major
''', [(1, 2), (3, 1)]),
    ('''
from dataclasses import dataclass


@dataclass
class Box:
    lo: int
    hi: int

    def __post_init__(self):
        if self.lo > self.hi:
            raise ValueError("empty box")

    def size(self) -> int:
        return self.hi - self.lo


def f(a: int, b: int):
    return Box(a, b).size()
''', [(1, 3), (3, 1)]),
    ('''
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class Key:
    PREFIX: ClassVar[str] = "k"
    name: str
    n: int = 0

    def label(self) -> str:
        return self.PREFIX + ":" + self.name + str(self.n)


def f(n: int):
    d = {Key("a"): 1, Key("b", n): 2}
    return d[Key("b", n)], Key("a").label(), Key.PREFIX, len(d), Key("a") == Key("a", 0)
''', [(3,)]),
]
