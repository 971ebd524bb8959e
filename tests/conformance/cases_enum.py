"""Enum classes, as PyTorch's test_enum.py scripts them (a CompilationUnit source: bare
`Enum`, or `from enum import Enum`)."""

CASES = [
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


def enum_comp(x: int) -> bool:
    a = Color.RED if x > 0 else Color.GREEN
    return a == Color.GREEN
''', [(1,), (0,)]),
    ('''
class Foo(Enum):
    ITEM1 = 1
    ITEM2 = 2


class Bar(Enum):
    ITEM1 = 1
    ITEM2 = 2


def enum_comp(x: int) -> bool:
    return Foo.ITEM1 == Bar.ITEM1
''', [(1,)]),
    ('''
class Color(Enum):
    RED = "red"
    GREEN = "green"


def enum_name_value(x: int) -> Tuple[str, str]:
    c = Color.RED if x == 0 else Color.GREEN
    return c.name, c.value
''', [(0,), (1,)]),
    ('''
class FloatEnum(Enum):
    A = 1.5
    B = 2.25


def f(x: float) -> float:
    return FloatEnum.A.value * x + FloatEnum.B.value
''', [(2.0,)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


def iterate_enum(x: int) -> List[int]:
    res: List[int] = []
    for e in Color:
        res.append(e.value * x)
    return res
''', [(2,)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


def is_red(c: Color) -> bool:
    return c is Color.RED


def f(x: int) -> Tuple[bool, bool]:
    return is_red(Color(x)), is_red(Color.GREEN)
''', [(1,), (2,), (3,)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


class Painter:
    def __init__(self, c: Color):
        self.c = c

    def swap(self) -> Color:
        if self.c == Color.RED:
            self.c = Color.GREEN
        else:
            self.c = Color.RED
        return self.c


def f(x: int) -> List[str]:
    p = Painter(Color(x))
    return [p.swap().name, p.swap().name, str(p.c)]
''', [(1,), (2,)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


def f(x: int) -> Dict[str, int]:
    d: Dict[str, int] = {}
    for c in Color:
        d[c.name] = c.value + x
    return d
''', [(5,)]),
    ('''
class Mode(Enum):
    TRAIN = "train"
    EVAL = "eval"


def f(m: str) -> Tensor:
    x = torch.arange(3)
    mode = Mode(m)
    if mode == Mode.TRAIN:
        return x * 2
    return x
''', [("train",), ("eval",), ("test",)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


def f(x: int) -> List[str]:
    c = Color(x)
    return [str(c), repr(c), f"{c.name}:{c.value}", "%s" % c.name]
''', [(1,), (2,)]),
    ('''
class Color(Enum):
    RED = 1
    GREEN = 2


def f(x: int) -> Tuple[int, bool, bool, str]:
    cs = [c for c in Color if c.value >= x]
    return len(cs), Color.RED in cs, Color["GREEN"] in cs, cs[0].name
''', [(1,), (2,)]),
    ('''
from enum import Enum, unique

@unique
class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    return Color(x).name
''', [(1,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    return [(name, m.value) for name, m in Color.__members__.items()], x
''', [(1,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    d = {Color.RED: "r", Color.GREEN: "g"}
    return d[Color(x)], Color.GREEN in d, sorted([c.value for c in d])
''', [(1,), (2,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    c = Color(x)
    if c == Color.RED:
        return "red"
    elif c == Color.GREEN:
        return "green"
    return "?"
''', [(1,), (2,)]),
    ('''
from enum import Enum

class Op(Enum):
    ADD = "+"
    MUL = "*"

    def apply(self, a: int, b: int) -> int:
        if self == Op.ADD:
            return a + b
        return a * b

def f(a: int, b: int):
    return [op.apply(a, b) for op in Op], Op("*").apply(a, b)
''', [(3, 4)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    c = Color.RED
    print(c, c.name, c.value)
    print(f"{c} is {c.value}")
    return x
''', [(1,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def g(c: Color = Color.RED) -> str:
    return c.name

def f(x: int):
    return g(), g(Color.GREEN)
''', [(1,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    cs: List[Color] = []
    for c in Color:
        if c.value >= x:
            cs.append(c)
    return [c.name for c in cs], max(c.value for c in Color)
''', [(2,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1

def f(x: int):
    return Color.RED.name.lower(), Color.RED == Color.RED, Color.RED != Color.RED, type(Color.RED.value) == int if False else 0
''', [(1,)]),
    ('''
from enum import Enum

class Color(Enum):
    RED = 1
    GREEN = 2

def f(x: int):
    c = Color(x)
    return f"{c:>12}|{c:<10}|{c}", "{:^14}".format(c), format(c, "")
''', [(1,), (2,)]),
]
