"""Script classes: methods, magic methods, class attributes, static methods, NamedTuple."""

CASES = [
    ('''
class Counter:
    def __init__(self, start: int):
        self.n = start
        self.items: List[str] = []

    def add(self, s: str) -> int:
        self.items.append(s)
        self.n += 1
        return self.n

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> str:
        return self.items[i]

    def __contains__(self, s: str) -> bool:
        return s in self.items


def f(x: int) -> Tuple[int, int, str, bool, bool]:
    c = Counter(x)
    c.add("a")
    c.add("b")
    return c.n, len(c), c[1], "a" in c, "z" in c
''', [(3,)]),
    ('''
class P:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y

    def __eq__(self, other: "P") -> bool:
        return self.x == other.x and self.y == other.y

    def __lt__(self, other: "P") -> bool:
        return (self.x, self.y) < (other.x, other.y)

    def __add__(self, other: "P") -> "P":
        return P(self.x + other.x, self.y + other.y)

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


def f(a: int, b: int) -> Tuple[bool, bool, int, bool]:
    p = P(a, b)
    q = P(b, a)
    return p == q, p < q, (p + q).norm1(), p != q
''', [(1, 2), (3, 3)]),
    ('''
class A:
    def __init__(self, v: float):
        self.v = v

    @staticmethod
    def make(v: float) -> "A":
        return A(v * 2.0)

    def get(self) -> float:
        return self.helper() + 1.0

    def helper(self) -> float:
        return self.v


def f(v: float) -> float:
    return A.make(v).get()
''', [(1.5,)]),
    ('''
class B:
    def __init__(self, x: int):
        self._x = x

    @property
    def x(self) -> int:
        return self._x * 10


def f(v: int) -> int:
    return B(v).x
''', [(4,)]),
    ('''
class Pt(NamedTuple):
    x: int
    y: float


def f(a: int) -> Tuple[int, float, float]:
    p = Pt(a, 2.5)
    q = Pt(x=1, y=0.5)
    return p.x + q[0], p[1], q.y
''', [(1,)]),
    ('''
class Pt(NamedTuple):
    x: int
    y: int = 5


def f(a: int) -> Pt:
    return Pt(a)
''', [(1,)]),
    ('''
class Node:
    def __init__(self, v: int, nxt: Optional["Node"]):
        self.v = v
        self.nxt = nxt


def f(n: int) -> int:
    head: Optional[Node] = None
    for i in range(n):
        head = Node(i, head)
    s = 0
    while head is not None:
        s += head.v
        head = head.nxt
    return s
''', [(4,)]),
    ('''
class Box:
    def __init__(self, t: Tensor):
        self.t = t

    def scale(self, k: float) -> None:
        self.t = self.t * k


def f() -> Tensor:
    b = Box(torch.ones(2))
    b.scale(3.0)
    return b.t
''', [()]),
    ('''
class S:
    def __init__(self, s: str):
        self.s = s

    def __str__(self) -> str:
        return "S(" + self.s + ")"

    def __hash__(self) -> int:
        return len(self.s)

    def __bool__(self) -> bool:
        return len(self.s) > 0


def f(s: str) -> Tuple[str, int, bool]:
    x = S(s)
    return str(x), hash(x), bool(x)
''', [("ab",), ("",)]),
    ('''
class M:
    def __init__(self):
        self.d: Dict[str, int] = {}

    def __setitem__(self, k: str, v: int) -> None:
        self.d[k] = v

    def __getitem__(self, k: str) -> int:
        return self.d[k]


def f() -> int:
    m = M()
    m["a"] = 3
    return m["a"]
''', [()]),
    ('''
class Lin:
    def __init__(self, n: int):
        self.w = torch.ones(n)

    def __call__(self, x: Tensor) -> Tensor:
        return x * self.w

    def forward(self, x: Tensor) -> Tensor:
        return self(x) + 1


def f() -> Tensor:
    return Lin(3).forward(torch.arange(3).float())
''', [()]),
    ('''
class C:
    def __init__(self, x: int):
        self.x = x

    def inc(self) -> "C":
        self.x += 1
        return self


def f() -> int:
    return C(1).inc().inc().x
''', [()]),
    ('''
class K:
    def __init__(self, a: int):
        self.a = a

    def __neg__(self) -> "K":
        return K(-self.a)

    def __mul__(self, k: int) -> "K":
        return K(self.a * k)

    def __le__(self, o: "K") -> bool:
        return self.a <= o.a

    def __gt__(self, o: "K") -> bool:
        return self.a > o.a


def f(a: int) -> Tuple[int, int, bool, bool]:
    k = K(a)
    return (-k).a, (k * 3).a, k <= K(0), k > K(0)
''', [(2,), (-1,)]),
    ('''
class Cfg:
    def __init__(self, name: str, size: int = 4, scale: float = 1.0):
        self.name = name
        self.size = size
        self.scale = scale


def f() -> Tuple[str, int, float]:
    c = Cfg("x", scale=2.0)
    return c.name, c.size, c.scale
''', [()]),
    ('''
class Stack:
    def __init__(self):
        self.xs: List[int] = []

    def push(self, x: int) -> None:
        self.xs.append(x)

    def pop(self) -> int:
        return self.xs.pop()

    def empty(self) -> bool:
        return len(self.xs) == 0


def f(xs: List[int]) -> List[int]:
    s = Stack()
    for x in xs:
        s.push(x)
    out: List[int] = []
    while not s.empty():
        out.append(s.pop())
    return out
''', [([1, 2, 3],)]),
    ('''
class Acc:
    def __init__(self):
        self.total = 0

    def __iadd__(self, x: int) -> "Acc":
        self.total += x
        return self


def f() -> int:
    a = Acc()
    a += 3
    a += 4
    return a.total
''', [()]),
    ('''
class T:
    def __init__(self, x: int):
        self.x = x

    @classmethod
    def zero(cls) -> "T":
        return cls(0)


def f() -> int:
    return T.zero().x
''', [()]),
    ('''
class It:
    def __init__(self, n: int):
        self.n = n

    def values(self) -> List[int]:
        return [i * i for i in range(self.n)]


def f() -> List[int]:
    return It(4).values()
''', [()]),
    ('''
class Pair(NamedTuple):
    a: Tensor
    b: int


def f() -> Tensor:
    p = Pair(torch.ones(2), 3)
    a, b = p
    return a * b
''', [()]),
    ('''
class V:
    def __init__(self, x: float):
        self.x = x

    def __repr__(self) -> str:
        return "V(" + str(self.x) + ")"


def f() -> str:
    return repr(V(1.5))
''', [()]),
    ('''
class Animal:
    legs: int

    def __init__(self, legs: int):
        self.legs = legs

    def describe(self) -> str:
        return "animal with " + str(self.legs)


def f() -> str:
    return Animal(4).describe()
''', [()]),
]
