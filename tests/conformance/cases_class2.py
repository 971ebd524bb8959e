"""Script classes the way the JIT tests write them: (object) bases, type comments,
unannotated Tensor parameters, sorting objects, classes returned."""

CASES = [
    ('''
class Holder(object):
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


def f():
    h = Holder(torch.ones(2))
    return h.get() + h.v
''', [()]),
    ('''
class Holder(object):
    def __init__(self):
        pass

    def __contains__(self, key):
        # type: (str) -> bool
        return key == "yes"


def f():
    h = Holder()
    return "yes" in h, "no" in h
''', [()]),
    ('''
class Cnt(object):
    def __init__(self, n):
        # type: (int) -> None
        self.n = n

    def bump(self, k):
        # type: (int) -> None
        self.n = self.n + k


def f(n):
    # type: (int) -> int
    c = Cnt(n)
    c.bump(5)
    return c.n
''', [(2,)]),
    ('''
class Ident(object):
    def __init__(self, v):
        # type: (int) -> None
        self.v = v

    @staticmethod
    def same(v):
        return v


def f():
    return Ident.same(torch.ones(1))
''', [()]),
    ('''
class Acc(object):
    def __init__(self, x):
        self.x = x
        self.x = self.twice(x)

    def twice(self, y):
        return self.x + y


def f():
    return Acc(torch.ones(1)).x
''', [()]),
    ('''
class Item(object):
    def __init__(self, k):
        # type: (int) -> None
        self.k = k

    def __lt__(self, other):
        # type: (Item) -> bool
        return self.k < other.k

    def key(self):
        return self.k


def f(rev):
    # type: (bool) -> Tuple[List[int], List[int]]
    li = [Item(3), Item(1), Item(2)]
    out1 = torch.jit.annotate(List[int], [])
    for it in sorted(li):
        out1.append(it.key())
    li.sort(reverse=rev)
    out2 = [it.key() for it in li]
    return out1, out2
''', [(False,), (True,)]),
    ('''
class Inner(object):
    def __init__(self, y):
        self.y = y


class Outer(object):
    def __init__(self, y):
        self.a = Inner(y)
        self.b = Inner(y * 2)
        self.s = self.a.y + self.b.y


def f():
    return Outer(torch.ones(2)).s
''', [()]),
    ('''
class Pt(object):
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def __add__(self, o: "Pt") -> "Pt":
        return Pt(self.x + o.x, self.y + o.y)

    def __sub__(self, o: "Pt") -> "Pt":
        return Pt(self.x - o.x, self.y - o.y)

    def __mul__(self, k: float) -> "Pt":
        return Pt(self.x * k, self.y * k)

    def dot(self, o: "Pt") -> float:
        return self.x * o.x + self.y * o.y


def f(a: float, b: float) -> float:
    p = Pt(a, b)
    q = Pt(b, a)
    return ((p + q) * 2.0 - q).dot(p)
''', [(1.0, 2.0)]),
    ('''
class Tree(object):
    def __init__(self, v: int):
        self.v = v
        self.kids: List[Tree] = []

    def add(self, t: "Tree") -> None:
        self.kids.append(t)

    def total(self) -> int:
        s = self.v
        for k in self.kids:
            s += k.total()
        return s


def f() -> int:
    t = Tree(1)
    c = Tree(2)
    c.add(Tree(3))
    t.add(c)
    t.add(Tree(4))
    return t.total()
''', [()]),
    ('''
class Q(object):
    def __init__(self):
        self.d: Dict[str, List[int]] = {}
        self.opt: Optional[int] = None

    def put(self, k: str, v: int) -> None:
        if k not in self.d:
            self.d[k] = []
        self.d[k].append(v)
        self.opt = v


def f() -> Tuple[Dict[str, List[int]], Optional[int]]:
    q = Q()
    q.put("a", 1)
    q.put("a", 2)
    q.put("b", 3)
    return q.d, q.opt
''', [()]),
    ('''
class Lazy(object):
    def __init__(self, x: int):
        self.x = x

    def get(self) -> int:
        if self.x > 0:
            return self.x
        raise ValueError("not positive")


def f(x: int) -> int:
    return Lazy(x).get()
''', [(1,), (-1,)]),
    ('''
class E(object):
    def __init__(self, a: int):
        self.a = a

    def __eq__(self, other: "E") -> bool:
        return self.a == other.a


def f() -> Tuple[bool, bool, bool]:
    xs = [E(1), E(2)]
    return E(1) == E(1), E(2) in xs, E(3) in xs
''', [()]),
    ('''
class G(object):
    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i >= self.n:
            raise IndexError("out of range")
        return i * i


def f(n: int) -> List[int]:
    g = G(n)
    return [g[i] for i in range(len(g))]
''', [(4,)]),
]
