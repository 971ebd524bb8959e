"""Enums, dataclasses, with-statements, loops over tuples, Unions, hash, slices."""

CASES = [
    ('''
from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2


def f(x: int):
    c = Color.RED if x > 0 else Color.GREEN
    return c == Color.RED, c.value, c.name
''', [(1,), (-1,)]),
    ('''
from enum import Enum


class Shape(Enum):
    SQUARE = "sq"
    CIRCLE = "ci"


def f(s: str):
    out: List[str] = []
    for m in Shape:
        out.append(m.name + m.value)
    return out, Shape.SQUARE.value == s
''', [("sq",)]),
    ('''
class Ctx(object):
    def __init__(self, log: List[str]):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, a: Any, b: Any, c: Any):
        self.log.append("exit")


def f():
    log: List[str] = []
    with Ctx(log) as c:
        c.log.append("body")
    return log
''', [()]),
    ('''
def f():
    out: List[str] = []
    for v in (1, "a", 2.5):
        out.append(str(v))
    return out
''', [()]),
    ('''
def f(x: Tensor):
    return x
''', [()]) if False else ('''
def f():
    s = 0
    for v in (1, 2, 3):
        s += v
    return s
''', [()]),
    ('''
def f():
    t = (1, "x", [2.0])
    a = t[0]
    b = t[-2]
    return a, b, t[2], t[0:2]
''', [()]),
    ('''
def f(x: Union[int, str, List[int]]):
    if isinstance(x, int):
        return "int"
    elif isinstance(x, str):
        return "str:" + x
    else:
        return "list" + str(len(x))
''', [(1,), ("a",), ([1, 2],)]),
    ('''
def f(flag: bool) -> Union[int, str]:
    if flag:
        return 1
    return "one"
''', [(True,), (False,)]),
    ('''
def f(x: Optional[Union[int, str]]):
    if x is None:
        return "none"
    if isinstance(x, int):
        return "i"
    return "s"
''', [(None,), (1,), ("a",)]),
    ('''
def f(a: int, s: str, t: Tuple[int, str], fl: float, b: bool):
    return hash(a) == hash(a), hash(s) == hash(s), hash(t) == hash(t), hash(fl) == hash(fl), hash(b)
''', [(3, "x", (1, "y"), 1.5, True)]),
    ('''
def f(xs: List[int]):
    return xs[slice(1, 3)], xs[slice(None, None, -1)]
''', [([1, 2, 3, 4],)]) if False else ('''
def f(xs: List[int]):
    return xs[1:-1:2], xs[-1:0:-1], xs[::3]
''', [([1, 2, 3, 4, 5, 6, 7],)]),
    ('''
def f():
    x = torch.arange(24).view(2, 3, 4)
    return x[1, :, ::2], x[:, -1], x[..., 0], x[None, 0].shape, x[:, None].size()
''', [()]),
    ('''
def f(t: Tuple[int, int, int, int]):
    return t[1:3], t[::-1], t[-2:]
''', [((1, 2, 3, 4),)]),
    ('''
def f(x: int):
    a: List[int] = []
    a += [x]
    b = a
    b += [x + 1]
    return a, b
''', [(1,)]),
    ('''
def f():
    x = [1, 2, 3]
    y = x[:]
    del y[0:2]
    return x, y
''', [()]),
    ('''
def f(d: Dict[str, int]):
    del d["a"]
    return d
''', [({"a": 1, "b": 2},), ({},)]),
    ('''
def f():
    a, *b = [1, 2, 3]
    *c, d = (4, 5, 6)
    return a, b, c, d
''', [()]),
    ('''
def f(n: int):
    if n > 0:
        pass
    else:
        n = -n
    return n
''', [(3,), (-3,)]),
    ('''
def f(x: int):
    y = 1 if x else 2
    z = x and 5
    w = x or 7
    return y, z, w
''', [(0,), (3,)]),
    ('''
def f(a: bool, b: bool):
    return a and b, a or b, (not a) == b
''', [(True, False), (False, False)]),
    ('''
def f(s: str):
    return s and "yes", s or "empty"
''', [("",), ("x",)]),
    ('''
def f(x: List[int]):
    return x and [1], x or [2]
''', [([],), ([5],)]),
    ('''
def f():
    i = 0
    for i in range(5):
        pass
    return i
''', [()]),
    ('''
def f(x: float):
    if x > 0:
        r = "pos"
    elif x < 0:
        r = "neg"
    else:
        r = "zero"
    return r
''', [(1.0,), (-1.0,), (0.0,)]),
    ('''
def f(xs: List[Tuple[str, int]]):
    d = dict(xs)
    return sorted(d.items(), reverse=True)
''', [([("a", 1), ("b", 2)],)]),
    ('''
def f():
    return [i for i in range(10) if i % 2 == 0 if i % 3 == 0]
''', [()]),
    ('''
def f(x: int):
    assert x != 0, f"x is {x}"
    return 10 // x
''', [(0,), (5,)]),
    ('''
def f(x: int):
    try:
        assert x > 0
    except AssertionError:
        return -1
    return x
''', [(0,), (1,)]),
    ('''
def f():
    x = torch.ones(3)
    for i in range(x.size(0)):
        x[i] = i * 2
    return x
''', [()]),
    ('''
def f():
    xs = [torch.ones(2), torch.zeros(2)]
    s = torch.zeros(2)
    for t in xs:
        s += t
    return s, len(xs)
''', [()]),
    ('''
def f():
    x = torch.tensor([3, 1, 2])
    return x.tolist()
''', [()]),
    ('''
def f(x: float, y: int):
    return float(x) == y, int(x) == y, str(y) + str(x)
''', [(2.0, 2)]),
]
