"""Classes as Python programs write them, as CompilationUnit sources: a linked list through
Optional["Node"], properties, static and class methods, annotated class attributes,
__eq__/__contains__/__getitem__, subclasses in a list of the base, the iterator protocol
(__iter__/__next__ with StopIteration) in for loops, comprehensions and builtins,
__hash__/__lt__/__repr__."""

import torch
CASES = [
('''
class Node:
    def __init__(self, val: int, next: Optional["Node"] = None):
        self.val = val
        self.next = next

def f(n: int):
    head: Optional[Node] = None
    for i in range(n):
        head = Node(i, head)
    out = []
    cur = head
    while cur is not None:
        out.append(cur.val)
        cur = cur.next
    return out
''', [(3,), (0,)]),
('''
class Counter:
    count: int = 0
    def __init__(self, start: int):
        self.n = start
    @property
    def double(self) -> int:
        return self.n * 2
    @staticmethod
    def make(k: int) -> "Counter":
        return Counter(k)
    @classmethod
    def zero(cls) -> "Counter":
        return cls(0)
    def __eq__(self, other: "Counter") -> bool:
        return self.n == other.n
    def __contains__(self, x: int) -> bool:
        return 0 <= x < self.n
    def __getitem__(self, i: int) -> int:
        return i * self.n

def f(a: int):
    c = Counter.make(a)
    return c.double, Counter.zero().n, c == Counter(a), 2 in c, c[3], Counter.count
''', [(4,)]),
('''
class Shape:
    def area(self) -> float:
        return 0.0
    def describe(self) -> str:
        return f"{type(self).__name__} with area {self.area():.1f}"

class Sq(Shape):
    def __init__(self, s: float):
        self.s = s
    def area(self) -> float:
        return self.s * self.s

class Circle(Shape):
    def __init__(self, r: float):
        self.r = r
    def area(self) -> float:
        return 3.0 * self.r * self.r

def f(x: float):
    shapes: List[Shape] = [Sq(x), Circle(x)]
    return [s.area() for s in shapes], [isinstance(s, Sq) for s in shapes], shapes[0].describe()
''', [(2.0,)]),
('''
class It:
    def __init__(self, n: int):
        self.i = 0
        self.n = n
    def __iter__(self):
        return self
    def __next__(self) -> int:
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i

def f(n: int):
    return [x for x in It(n)], sum(It(n))
''', [(3,)]),
('''
class P:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y
    def __hash__(self) -> int:
        return hash((self.x, self.y))
    def __lt__(self, other: "P") -> bool:
        return (self.x, self.y) < (other.x, other.y)
    def __repr__(self) -> str:
        return f"P({self.x}, {self.y})"

def f(n: int):
    ps = [P(n - i, i) for i in range(3)]
    return str(sorted(ps)), repr(min(ps)), hash(ps[0]) == hash(P(n, 0))
''', [(5,)]),
]
CASES += [
('''
class RangeIter:
    def __init__(self, lo: int, hi: int):
        self.cur = lo
        self.hi = hi
    def __next__(self) -> int:
        if self.cur >= self.hi:
            raise StopIteration
        v = self.cur
        self.cur += 1
        return v

class Span:
    def __init__(self, lo: int, hi: int):
        self.lo = lo
        self.hi = hi
    def __iter__(self) -> RangeIter:
        return RangeIter(self.lo, self.hi)

def f(a: int, b: int, stop: int):
    out = []
    for x in Span(a, b):
        if x == stop:
            break
        if x % 2:
            continue
        out.append(x)
    else:
        out.append(-1)
    total = 0
    for x in Span(a, b):
        for y in Span(0, x):
            total += y
    return out, total, list(Span(a, b)), max(Span(a, b)) if b > a else 0, [x * 2 for x in Span(a, b) if x > a]
''', [(0, 6, 99), (0, 6, 3), (2, 2, 0)]),
]
