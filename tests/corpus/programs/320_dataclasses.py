from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class Point:
    x: int
    y: float = 0.5
    tags: List[str] = field(default_factory=list)

    def norm1(self) -> float:
        return abs(self.x) + abs(self.y)


@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    label: str = ""


@dataclass
class Account:
    owner: str
    balance: float = 0.0
    history: List[float] = field(default_factory=list)
    parent: Optional["Account"] = None

    def __post_init__(self):
        if self.balance < 0:
            raise ValueError("negative opening balance: " + str(self.balance))
        self.history.append(self.balance)

    def deposit(self, v: float) -> "Account":
        self.balance += v
        self.history.append(self.balance)
        return self


@dataclass(eq=False)
class Token:
    text: str

    def __repr__(self) -> str:
        return "<" + self.text + ">"


@dataclass
class Point3(Point):
    z: float = 1.0
    y: float = 2.0

    def norm1(self) -> float:
        return super().norm1() + abs(self.z)


def derived(n: int) -> List[str]:
    p = Point3(n)
    return [str(p), str(p.norm1()), str(Point3(1, 1.0, [], 3.0) == Point3(1, 1.0, [], 3.0))]


def points(n: int) -> List[str]:
    p = Point(n)
    q = Point(n, 2.0, ["a"])
    p.tags.append("t")
    return [str(p), repr(q), str(p == Point(n, 0.5, ["t"])), str(p == q), str(q.norm1()),
            str(Point(1).tags is Point(1).tags)]


def versions(a: int, b: int) -> List[str]:
    v, w = Version(a), Version(b, 1, "rc")
    return [f"{v} < {w}: {v < w}", f"<= {v <= w}", f"> {v > w}", f"== {v == Version(a)}",
            f">= {w >= Version(b, 1)}", f"!= {v != w}"]


def sorted_versions(n: int) -> List[str]:
    vs = [Version(n - i % 3, i) for i in range(5)]
    return [str(v) for v in sorted(vs)] + [str(max(vs)), str(min(vs))]


def keyed(n: int) -> List[int]:
    d = {Version(1): 10, Version(2, 1): 20}
    d[Version(n)] = 30
    return sorted(d.values()) + [len(d), d[Version(1)]]


def accounts(x: float) -> List[str]:
    a = Account("ann", x)
    b = Account("bob", parent=a).deposit(2.5).deposit(1.0)
    p = b.parent
    return [str(a.history), str(b.history), b.owner, "none" if p is None else p.owner,
            str(Account("c") == Account("c"))]


def tokens(s: str) -> List[str]:
    t = Token(s)
    return [repr(t), str([t, Token("x")]), str(t == t), str(t == Token(s))]


CASES = [
    ("points", (3,)),
    ("versions", (1, 2)),
    ("versions", (2, 2)),
    ("sorted_versions", (4,)),
    ("accounts", (10.0,)),
    ("accounts", (-1.0,)),
    ("tokens", ("hi",)),
    ("derived", (2,)),
    ("keyed", (1,)),
    ("keyed", (3,)),
]
