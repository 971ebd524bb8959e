"""TorchScript checkScript-style cases written for ember (classes with protocols, and
torch.jit.fork / wait run at once); programs and inputs are ember's own."""

import torch
CASES = [
('''
class Foo:
    def __init__(self, x: int):
        self.x = x
        self.items: List[int] = []
        self.lookup: Dict[str, Tensor] = {}

    def add(self, v: int) -> "Foo":
        self.items.append(v + self.x)
        return self

    def __getitem__(self, i: int) -> int:
        return self.items[i]

    def __setitem__(self, i: int, v: int):
        self.items[i] = v

    def __len__(self) -> int:
        return len(self.items)

def fn(n: int):
    f = Foo(n)
    f.add(1).add(2)
    f[0] = 100
    return f[0], f[1], len(f), f.items
''', [(3,)]),
('''
class Point:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def __eq__(self, other: "Point") -> bool:
        return self.x == other.x and self.y == other.y

    def __lt__(self, other: "Point") -> bool:
        return self.x < other.x

    def __hash__(self) -> int:
        return hash((self.x, self.y))

def fn(a: float):
    ps = [Point(3.0, 1.0), Point(a, 2.0), Point(1.0, 0.0)]
    ps.sort()
    xs = [p.x for p in ps]
    return xs, Point(1.0, 0.0) in ps, max(ps).x
''', [(2.0,)]),
('''
class Counter:
    count: int

    def __init__(self):
        self.count = 0

    def inc(self, by: int = 1) -> int:
        self.count += by
        return self.count

    @staticmethod
    def twice(x: int) -> int:
        return 2 * x

def fn(n: int):
    c = Counter()
    for i in range(n):
        c.inc()
    c.inc(by=Counter.twice(5))
    return c.count
''', [(4,)]),
('''
class Tree:
    def __init__(self, v: int, left: Optional["Tree"] = None, right: Optional["Tree"] = None):
        self.v = v
        self.left = left
        self.right = right

    def total(self) -> int:
        s = self.v
        l = self.left
        if l is not None:
            s += l.total()
        r = self.right
        if r is not None:
            s += r.total()
        return s

def fn(n: int):
    t = Tree(n, Tree(2, Tree(3)), Tree(4))
    return t.total()
''', [(1,)]),
('''
class Box:
    def __init__(self, t: Tensor):
        self.t = t

    def scale(self, k: float):
        self.t = self.t * k

def apply(b: Box, k: float) -> Box:
    b.scale(k)
    return b

def fn(x: Tensor):
    b = apply(Box(x), 2.0)
    return b.t
''', [(torch.ones(2),)]),
('''
class Shape:
    def __init__(self, name: str):
        self.name = name

    def area(self) -> float:
        return 0.0

    def describe(self) -> str:
        return self.name + ":" + str(self.area())

class Square(Shape):
    def __init__(self, s: float):
        super().__init__("square")
        self.s = s

    def area(self) -> float:
        return self.s * self.s

def fn(s: float):
    shapes: List[Shape] = [Shape("none"), Square(s)]
    return [x.describe() for x in shapes]
''', [(3.0,)]),
('''
class Acc:
    def __init__(self):
        self.vals = torch.jit.annotate(List[Tensor], [])

    def push(self, t: Tensor):
        self.vals.append(t)

    def stacked(self) -> Tensor:
        return torch.stack(self.vals)

def fn(x: Tensor):
    a = Acc()
    for i in range(3):
        a.push(x * i)
    return a.stacked()
''', [(torch.ones(2),)]),
('''
class Cfg:
    DEFAULT = 7

    def __init__(self, n: Optional[int] = None):
        if n is None:
            self.n = Cfg.DEFAULT
        else:
            self.n = n

def fn(k: int):
    return Cfg().n + Cfg(k).n
''', [(3,)]),
('''
class V:
    def __init__(self, x: int):
        self.x = x

    def __add__(self, o: "V") -> "V":
        return V(self.x + o.x)

    def __mul__(self, k: int) -> "V":
        return V(self.x * k)

    def __neg__(self) -> "V":
        return V(-self.x)

    def __str__(self) -> str:
        return "V(" + str(self.x) + ")"

    def __repr__(self) -> str:
        return "V<" + str(self.x) + ">"

    def __bool__(self) -> bool:
        return self.x != 0

def fn(a: int):
    v = V(a) + V(2) * 3
    w = -v
    return str(v), repr(w), bool(V(0)), [str(V(1))], "yes" if v else "no"
''', [(1,)]),
('''
class It:
    def __init__(self, n: int):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

def fn(n: int):
    s = 0
    for i in It(n):
        s += i
    return s
''', [(5,)]),
('''
class P:
    def __init__(self, a: int):
        self.a = a

def fn(n: int):
    ps = [P(i) for i in range(n)]
    d = {p.a: p for p in ps}
    return d[2].a, isinstance(ps[0], P), len(ps)
''', [(4,)]),
('''
class Holder:
    def __init__(self, x: Optional[Tensor]):
        self.x = x

    def get(self) -> Tensor:
        x = self.x
        if x is None:
            return torch.zeros(1)
        return x

def fn(t: Tensor):
    return Holder(t).get() + Holder(None).get()
''', [(torch.ones(1),)]),
]

_LEFT_OUT = {9: 'a class __iter__ returning iter(range(n)) is not supported'}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]

CASES += [
('''
def g(x: Tensor, k: int = 2) -> Tensor:
    return x * k

def f(x: Tensor) -> Tensor:
    fut = torch.jit.fork(g, x)
    fut2 = torch.jit._fork(g, x, k=3)
    y = g(x)
    return torch.jit.wait(fut) + torch.jit._wait(fut2) + y
''', [(torch.ones(2),)]),
('''
def f(x: Tensor):
    futs: List[torch.jit.Future[Tensor]] = []
    for i in range(3):
        futs.append(torch.jit.fork(torch.add, x, i))
    return [torch.jit.wait(fu) for fu in futs]
''', [(torch.ones(2),)]),
]
