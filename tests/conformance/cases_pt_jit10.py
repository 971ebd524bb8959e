"""TorchScript checkScript-style cases for the later test_jit.py's class, Enum, NamedTuple,
exception, formatting, complex, Optional and control-flow constructs (static methods,
ordering by __lt__, NamedTuple len and equality, keyword-only parameters, recursion, sets);
the programs and inputs are ember's own."""

import torch

torch.manual_seed(0)

CASES = [
('''
class Acc:
    def __init__(self, start: int = 0):
        self.total = start
        self.items: List[int] = []

    @staticmethod
    def double(x: int) -> int:
        return 2 * x

    def add(self, x: int) -> "Acc":
        self.total += Acc.double(x)
        self.items.append(x)
        return self

def f(n: int):
    a = Acc()
    b = Acc(10)
    for i in range(n):
        a.add(i).add(1)
    b.add(n)
    return a.total, a.items, b.total
''', [(3,), (0,)]),
('''
class Pt:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def __lt__(self, other: "Pt") -> bool:
        return self.x < other.x or (self.x == other.x and self.y < other.y)

    def norm(self) -> float:
        return (self.x ** 2 + self.y ** 2) ** 0.5

def f(xs: List[float]):
    ps = [Pt(x, -x) for x in xs]
    ps.sort()
    d = {str(i): p for i, p in enumerate(ps)}
    return [p.x for p in ps], d["0"].norm(), len(d)
''', [([3.0, -1.0, 2.0],)]),
('''
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

def f(v: int):
    out: List[str] = []
    for c in Color:
        if c.value >= v:
            out.append(c.name)
    return out, Color.RED == Color.RED, Color(2).name if False else Color.GREEN.name
''', [(2,), (4,)]),
('''
class Pair(NamedTuple):
    a: int
    b: str = "x"

def f(n: int):
    p = Pair(n)
    q = Pair(b="y", a=n + 1)
    return p.a + q.a, p.b + q.b, p[0], len(p), p == Pair(n, "x")
''', [(1,)]),
('''
def f(x: int):
    try:
        if x < 0:
            raise ValueError("neg")
        y = 10 // x
    except ZeroDivisionError:
        y = -1
    except ValueError as e:
        y = -2
    finally:
        x = x + 100
    return y, x
''', [(5,), (0,), (-3,)]),
('''
def f(x: int):
    try:
        raise KeyError("k")
    except (ValueError, KeyError) as e:
        return str(e)
''', [(1,)]),
('''
def f(d: Dict[str, int], k: str):
    return d[k]
''', [({"a": 1}, "a"), ({"a": 1}, "b")]),
('''
def f(xs: List[int], i: int):
    return xs[i]
''', [([1, 2], 1), ([1, 2], 5), ([1, 2], -3)]),
('''
def f(a: int, b: int):
    return a / b, a // b, a % b
''', [(7, 2), (1, 0)]),
('''
def f(s: str):
    return int(s) + 1
''', [("5",), ("x",), ("",)]),
('''
def f(t: Tuple[int, int], u: Tuple[int, int]):
    return t < u, t == u, t + u, max(t, u), t in [u, (1, 2)], (t + u)[1:3]
''', [((1, 2), (1, 3)), ((2, 0), (1, 9))]),
('''
def f(n: int):
    d: Dict[Tuple[int, int], str] = {}
    for i in range(n):
        d[(i, i * i)] = str(i)
    return d, (1, 1) in d, d.get((2, 4), "none")
''', [(3,)]),
('''
def f(n: int):
    return [(i, j) for i in range(n) for j in range(i) if (i + j) % 2 == 1], [[i * j for j in range(3)] for i in range(n)]
''', [(4,)]),
('''
def f(n: int):
    out = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        for j in range(i):
            if j > 2:
                break
            out += j
        if out > 20:
            break
    return out
''', [(5,), (20,)]),
('''
def f(s: str):
    return "-".join([w.capitalize() for w in s.split()]), s.replace("a", "A", 1), s.split(" ", 1), s.rsplit(maxsplit=1)
''', [("a banana and an apple",)]),
('''
def f(a: int, b: str):
    return "{0}{1}{0}".format(a, b), "{a}-{b}".format(a=a, b=b), f"{a + 1:>4}|{b!r:^7}|{a * 2.5:.2f}", "%s=%r" % (b, b), "%-5d|%05.1f" % (a, a / 3)
''', [(7, "z"), (-12, "q")]),
('''
def f(x: float):
    return str(x), repr(x), "{}".format(x), f"{x}", "%s" % x, "%g" % x
''', [(0.1,), (1e16,), (123456789.123,), (-0.0,), (float("inf"),), (1.0,)]),
('''
def f(a: Tensor, b: Tensor):
    c = torch.complex(a, b)
    return c.real, c.imag, c.abs(), c.angle(), c.conj(), torch.view_as_real(c), c * c, c.dtype == torch.complex64
''', [(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 3.0]))]),
('''
def f(z: complex, w: complex):
    return z + w, z * w, z / w, z ** 2, z == w, abs(z - w), complex(z.real, -z.imag)
''', [(1 + 2j, 3 - 1j), (0j, 1j)]),
('''
def f(x: Optional[List[int]] = None, y: Optional[str] = None):
    if x is None:
        x = [0]
    n = len(y) if y is not None else -1
    return x, n
''', [(), ([1, 2],), (None, "abc")]),
('''
def f(x: List[Optional[int]]):
    total = 0
    for v in x:
        if v is not None:
            total += v
    return total, [v is None for v in x]
''', [([1, None, 3],)]),
('''
def helper(x: int, *, scale: int = 2, offset: int = 0) -> int:
    return x * scale + offset

def f(x: int):
    return helper(x), helper(x, scale=3), helper(x, offset=1, scale=0)
''', [(4,)]),
('''
def fact(n: int) -> int:
    if n <= 1:
        return 1
    return n * fact(n - 1)

def f(n: int):
    return fact(n)
''', [(5,), (0,)]),
('''
def f(xs: List[int]):
    it = 0
    while it < len(xs) and xs[it] != 0:
        it += 1
    return it, xs[:it], reversed(xs) if False else list(reversed(xs)), sorted(xs, key=None) if False else sorted(xs)
''', [([3, 2, 0, 5],), ([1],)]),
('''
def f(x: Tensor):
    y = x
    for i in range(3):
        y = y * 2 if i % 2 == 0 else y + 1
    return y, [t.sum() for t in x], torch.stack([t * i for i, t in enumerate(x)])
''', [(torch.arange(6.0).reshape(2, 3),)]),
('''
def f(x: Tensor):
    l: List[Tensor] = []
    d: Dict[str, Tensor] = {}
    for i in range(x.size(0)):
        l.append(x[i])
        d[str(i)] = x[i].sum()
    return l, d, len(l), list(d.keys())
''', [(torch.arange(6.0).reshape(3, 2),)]),
('''
def f(x: Tensor) -> Tensor:
    if x.sum() > 0:
        return x
    elif x.numel() == 0:
        return torch.zeros(1)
    else:
        return -x
''', [(torch.tensor([1.0, -0.5]),), (torch.tensor([-1.0]),), (torch.tensor([]),)]),
('''
def f(x: Tensor, i: int):
    return x[i], x[i:], x[-i], x.size(0) - i, x.shape[0] // 2
''', [(torch.arange(5), 2), (torch.arange(5), 7)]),
('''
def f(a: List[List[int]]):
    b = [row[:] for row in a]
    b[0][0] = 99
    c = a
    c[1].append(7)
    return a, b
''', [([[1, 2], [3]],)]),
('''
def f(n: int):
    s = set([1, 2, 3])
    s.add(n)
    s.discard(1)
    return sorted(s), n in s, len(s | {10}), sorted(s & {2, n}), sorted(s - {2})
''', [(5,), (2,)]),
]
