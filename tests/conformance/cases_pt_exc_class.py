"""TorchScript checkScript-style cases written for ember (pt exc class); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
CASES = [
('''
def foo(cond):
    if bool(cond):
        raise ValueError(3)
    return 1
''', [(torch.tensor(0),), (torch.tensor(1),)]),
('''
def foo():
    raise RuntimeError
''', [()]),
('''
def foo():
    raise RuntimeError("hello", "goodbye")
''', [()]),
('''
def foo():
    # type: () -> Tensor
    raise Exception("Hi")
''', [()]),
('''
def foo(cond):
    assert bool(cond), "hi"
    return 0
''', [(torch.tensor(1),), (torch.tensor(0),)]),
('''
def foo():
    if 1 == 1:
        a = 1
    else:
        if 1 == 1:
            raise Exception("Hi")
        else:
            raise Exception("Hi")
    return a
''', [()]),
('''
def fn():
    d = {"foo": 1, "bar": 2}
    return {**d, "baz": 3}
''', [()]),
('''
def fn(x: int) -> List[int]:
    a = [1, 2]
    return [*a, x]
''', [(3,)]),
('''
class Pair:
    def __init__(self, a: int, b: int):
        self.a = a
        self.b = b

    def total(self) -> int:
        return self.a + self.b

def fn(x: int) -> int:
    p = Pair(x, 2)
    p.a += 1
    return p.total()
''', [(3,)]),
('''
class Counter:
    def __init__(self):
        self.n = 0
        self.items: List[str] = []

    def add(self, s: str):
        self.items.append(s)
        self.n += 1

def fn(xs: List[str]) -> int:
    c = Counter()
    for s in xs:
        c.add(s)
    return c.n + len(c.items)
''', [(["a", "b"],)]),
('''
class V:
    def __init__(self, x: float):
        self.x = x
    def __add__(self, o: "V") -> "V":
        return V(self.x + o.x)
    def __eq__(self, o: "V") -> bool:
        return self.x == o.x
    def __lt__(self, o: "V") -> bool:
        return self.x < o.x
    def __len__(self) -> int:
        return int(self.x)
    def __contains__(self, v: float) -> bool:
        return v < self.x
    def __str__(self) -> str:
        return "V(" + str(self.x) + ")"

def fn(a: float) -> Tuple[float, bool, bool, int, bool, str]:
    v = V(a) + V(1.0)
    return v.x, v == V(2.0), V(0.0) < v, len(v), 0.5 in v, str(v)
''', [(1.0,)]),
('''
class A:
    def __init__(self, x: Tensor):
        self.x = x
    @staticmethod
    def make(n: int) -> "A":
        return A(torch.ones(n))
    @classmethod
    def make2(cls, n: int) -> "A":
        return cls(torch.zeros(n))

def fn(n: int) -> Tensor:
    return A.make(n).x + A.make2(n).x
''', [(2,)]),
('''
class A:
    def __init__(self, x: int):
        self.x = x
    @property
    def double(self) -> int:
        return self.x * 2

def fn(n: int) -> int:
    return A(n).double
''', [(2,)]),
('''
class Node:
    def __init__(self, v: int, nxt: Optional["Node"]):
        self.v = v
        self.nxt = nxt

def fn(n: int) -> int:
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
class Base:
    def __init__(self, x: int):
        self.x = x
    def f(self) -> int:
        return self.x

class Derived(Base):
    def __init__(self, x: int):
        super().__init__(x)
        self.y = x * 2
    def f(self) -> int:
        return super().f() + self.y

def fn(n: int) -> int:
    return Derived(n).f()
''', [(4,)]),
('''
from typing import NamedTuple
class P(NamedTuple):
    x: int
    y: float = 1.5

def fn(n: int) -> Tuple[int, float, float]:
    p = P(n)
    q = P(x=n, y=2.0)
    return p.x, p.y, q[1]
''', [(4,)]),
('''
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2

def fn(n: int) -> List[str]:
    c = Color.RED if n == 1 else Color.GREEN
    out = [c.name, str(c.value)]
    for m in Color:
        out.append(m.name)
    return out + [str(c == Color.RED)]
''', [(1,), (2,)]),
('''
class Ctx:
    def __init__(self):
        self.log: List[str] = []
    def __enter__(self):
        self.log.append("in")
        return self
    def __exit__(self, a: Any, b: Any, c: Any):
        self.log.append("out")

def fn(n: int) -> List[str]:
    c = Ctx()
    with c as z:
        z.log.append(str(n))
    return c.log
''', [(1,)]),
('''
def fn(x: Tensor) -> Tensor:
    with torch.no_grad():
        y = x * 2
    return y
''', [(torch.ones(2),)]),
('''
def fn(x: complex, y: complex) -> List[complex]:
    return [x + y, x * y, x / y, x - y, x ** 2, -x, x.conjugate()]
''', [(1+2j, 3-1j)]),
('''
def fn(x: complex) -> List[float]:
    return [x.real, x.imag, abs(x), cmath.phase(x)]
''', [(3+4j,)]),
('''
def fn(x: complex) -> List[complex]:
    return [cmath.sqrt(x), cmath.exp(x), cmath.log(x), cmath.sin(x), cmath.cosh(x), cmath.atan(x), cmath.log10(x)]
''', [(3+4j,), (-1+0j,)]),
('''
def fn(a: float, b: float) -> complex:
    return complex(a, b) + cmath.rect(a, b)
''', [(1.0, 2.0)]),
('''
def fn(x: complex) -> Tuple[float, float]:
    return cmath.polar(x)
''', [(1+1j,)]),
('''
def fn(x: complex) -> List[bool]:
    return [cmath.isnan(x), cmath.isinf(x), cmath.isfinite(x), x == 1j, x != 0, cmath.isclose(x, x)]
''', [(1+1j,)]),
('''
def fn(x: complex) -> str:
    return str(x) + repr(x) + "{}".format(x) + f"{x}"
''', [(1+1j,), (-0.5j,), (2+0j,)]),
('''
def fn() -> Tensor:
    return torch.tensor([1+2j, 3j]) * 2
''', [()]),
('''
def fn(x: Tensor) -> Tensor:
    return torch.view_as_real(x)
''', [(torch.tensor([1+2j, 3j]),)]),
('''
def fn(x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
    return x.real, x.imag, x.abs(), x.angle()
''', [(torch.tensor([1+2j, 3j]),)]),
('''
def fn(x: complex, y: int, z: float) -> List[complex]:
    return [x + y, y * x, z - x, x / z, complex(y), complex(z)]
''', [(1+2j, 2, 1.5)]),
('''
def fn(x: Tensor) -> complex:
    return x[0].item()
''', [(torch.tensor([1+2j, 3j]),)]),
('''
def fn(x: complex) -> complex:
    return cmath.inf + cmath.pi + cmath.e + x * cmath.infj
''', [(1+1j,)]) if False else ('''
def fn(x: complex) -> complex:
    return cmath.pi + cmath.e + x
''', [(1+1j,)]),
('''
def fn(x: int) -> complex:
    return x + 3j
''', [(1,)]),
]
