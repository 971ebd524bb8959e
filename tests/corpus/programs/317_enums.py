from enum import Enum, auto
from typing import Dict, List, Optional, Tuple


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1  # an alias of RED
    SCARLET = RED  # another one


class Shape(Enum):
    """Shapes, by their short names."""
    SQUARE = "sq"
    CIRCLE = "ci"

    def corners(self) -> int:
        if self is Shape.SQUARE:
            return 4
        return 0

    @property
    def label(self) -> str:
        return self.name.lower() + "/" + self.value

    @staticmethod
    def parse(s: str) -> "Shape":
        return Shape(s)


class Level(Enum):
    LOW = auto()
    MID = auto()
    HIGH = 10
    TOP = auto()


class Scale(Enum):
    HALF = 0.5
    DOUBLE = 2.0


class Paint:
    def __init__(self, color: Color, amount: float):
        self.color = color
        self.amount = amount

    def warm(self) -> bool:
        return self.color == Color.RED


def pick(x: int) -> Color:
    if x > 0:
        return Color.RED
    if x < 0:
        return Color.BLUE
    return Color.GREEN


def basics(x: int) -> Tuple[bool, bool, int, str, bool, bool]:
    c = pick(x)
    return (c == Color.RED, c != Color.GREEN, c.value, c.name, c is Color.BLUE,
            c is not Color.RED)


def aliases(x: int) -> Tuple[bool, str, int, List[str]]:
    c = Color.CRIMSON
    return c is Color.SCARLET, c.name, len(Color), [m.name for m in Color]


def iterate(s: str) -> Tuple[List[str], bool, List[int]]:
    out: List[str] = []
    for m in Shape:
        out.append(m.name + "=" + m.value)
    return out, Shape.SQUARE.value == s, [lv.value for lv in Level]


def by_value(v: int) -> str:
    return Color(v).name


def by_name(s: str) -> int:
    return Color[s].value


def text(x: int) -> List[str]:
    c = pick(x)
    return [str(c), repr(c), f"{c}", repr(Shape.CIRCLE), str(Scale.HALF), repr(Scale.DOUBLE),
            f"{c!r}", "%s" % str(c)]


def methods(s: str) -> Tuple[int, str, int, str]:
    sh = Shape.parse(s)
    return sh.corners(), sh.label, Shape.CIRCLE.corners(), Shape.SQUARE.label


def in_objects(x: int) -> Tuple[bool, float, str]:
    p = Paint(pick(x), 1.5)
    return p.warm(), p.amount * Scale.DOUBLE.value, p.color.name


def containers(x: int) -> Tuple[bool, bool, int, List[str], int]:
    cs = [Color.RED, Color.BLUE, pick(x)]
    d: Dict[str, Color] = {"a": Color.GREEN}
    d["b"] = pick(x)
    return (Color.GREEN in cs, pick(x) in cs, cs.index(Color.BLUE),
            [v.name for v in d.values()], cs.count(Color.RED))


def optional(x: int) -> str:
    c: Optional[Color] = None
    if x > 0:
        c = Color.GREEN
    if c is None:
        return "none"
    return c.name


def describe(c: Color, s: Shape) -> str:
    return f"{c.name}/{c.value}/{s.label}/{c is Color.BLUE}"


def described(v: int, s: str) -> str:
    return describe(Color(v), Shape(s))


def hashed(x: int) -> bool:
    return hash(pick(x)) == hash(pick(x))


CASES = [
    ("basics", (1,)),
    ("basics", (-1,)),
    ("basics", (0,)),
    ("aliases", (0,)),
    ("iterate", ("sq",)),
    ("iterate", ("x",)),
    ("by_value", (2,)),
    ("by_value", (7,)),
    ("by_name", ("BLUE",)),
    ("by_name", ("CRIMSON",)),
    ("by_name", ("PINK",)),
    ("text", (1,)),
    ("text", (-1,)),
    ("methods", ("sq",)),
    ("methods", ("ci",)),
    ("methods", ("tri",)),
    ("in_objects", (1,)),
    ("in_objects", (0,)),
    ("containers", (1,)),
    ("containers", (0,)),
    ("optional", (1,)),
    ("optional", (0,)),
    ("hashed", (3,)),
    ("described", (3, "ci")),
    ("described", (1, "sq")),
]
