"""Programs written against TorchScript's CompilationUnit conventions, core and beyond
(*args, **kwargs, nested and lambda-typed functions, generators, sets, walrus, starred and
slice assignment, str methods, torch.jit helpers), as a new user would write them: the
lead's probes of this session, each checked against CPython."""

import torch

torch.manual_seed(0)
A = torch.rand(3, 4)
B = torch.rand(4)

CASES = []


_BATCH1 = [
('''
def total(*args: int, scale: int = 1) -> int:
    s = 0
    for a in args:
        s += a
    return s * scale

def f(n: int) -> int:
    return total(1, 2, n) + total(n, scale=3) + total()
''', [(4,)]),
('''
def show(**kwargs: int) -> str:
    parts: List[str] = []
    for k, v in kwargs.items():
        parts.append(k + "=" + str(v))
    return ",".join(parts)

def f(n: int) -> str:
    d = {"a": n, "b": n * 2}
    return show(x=1, y=n) + ";" + show(**d)
''', [(3,)]),
('''
def f(xs: List[int]) -> List[int]:
    a, *rest = xs
    *init, last = xs
    return [a, last, len(rest), len(init)]
''', [([1, 2, 3, 4],), ([5, 6],)]),
('''
def gen(n: int):
    for i in range(n):
        if i % 2 == 0:
            yield i * i

def f(n: int) -> List[int]:
    return [x + 1 for x in gen(n)]
''', [(7,)]),
('''
def f(xs: List[int]) -> int:
    return sum(x * x for x in xs if x > 0)
''', [([1, -2, 3],), ([],)]),
('''
def f(xs: List[int]) -> List[int]:
    s = set(xs)
    t = {x * 2 for x in xs}
    u = s | t
    return sorted(u - {4})
''', [([1, 2, 3, 2],)]),
('''
class MyError(Exception):
    pass

def check(x: int) -> int:
    if x < 0:
        raise MyError("negative: " + str(x))
    return x

def f(x: int) -> str:
    try:
        return str(check(x))
    except MyError as e:
        return "caught " + str(e)
''', [(3,), (-2,)]),
('''
def f(xs: List[int]) -> int:
    for i in range(len(xs)):
        if xs[i] > 10:
            break
    return i
''', [([1, 20, 3],), ([1, 2],)]),
('''
def f(xs: List[int]) -> List[int]:
    out: List[int] = []
    i = 0
    while (n := len(xs) - i) > 0:
        out.append(n)
        i += 1
    return out
''', [([1, 2, 3],)]),
('''
def f(xs: List[int]) -> List[int]:
    ys = list(xs)
    ys[1:3] = [9, 9, 9]
    del ys[0]
    return ys
''', [([1, 2, 3, 4],)]),
('''
def f(xs: List[int]) -> List[int]:
    it = iter(xs)
    first = next(it)
    rest = [x for x in it]
    return [first] + rest[::-1]
''', [([1, 2, 3],)]),
('''
def f(xs: List[int], ys: List[str]) -> List[str]:
    return [s + str(i) for i, s in enumerate(ys)] + [s * x for x, s in zip(xs, ys)] + list(map(str, filter(lambda v: v > 1, xs)))
''', [([1, 2, 3], ["a", "b"])]),
('''
def f(xs: List[int]) -> List[int]:
    return list(reversed(xs)) + sorted(xs, key=lambda v: -v)
''', [([3, 1, 2],)]),
('''
def f(x: int) -> str:
    try:
        try:
            raise ValueError("inner")
        except ValueError as e:
            raise RuntimeError("outer") from e
    except RuntimeError as e:
        return str(e)
''', [(1,)]),
('''
def apply(fn: Callable[[int], int], x: int) -> int:
    return fn(x)

def f(x: int) -> int:
    k = 3
    return apply(lambda v: v * k, x) + apply(lambda v: v - 1, x)
''', [(5,)]),
('''
def f(n: int) -> int:
    def helper() -> int:
        return later * 2
    later = n + 1
    return helper()
''', [(4,)]),
('''
COUNT = 0
def bump() -> int:
    global COUNT
    COUNT += 1
    return COUNT

def f(n: int) -> int:
    bump()
    return bump() + n
''', [(1,)]),
('''
def f(d: Dict[str, int]) -> List[Tuple[str, int]]:
    return sorted(d.items(), key=lambda kv: kv[1], reverse=True)
''', [({"a": 1, "b": 3, "c": 2},)]),
('''
def f(xs: List[float]) -> Tuple[float, float]:
    m = sum(xs) / len(xs)
    v = sum((x - m) ** 2 for x in xs) / len(xs)
    return m, v
''', [([1.0, 2.0, 4.0],)]),
('''
def f(s: str) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for ch in s:
        counts[ch] = counts.get(ch, 0) + 1
    return counts
''', [("hello",)]),
('''
def f(n: int) -> List[int]:
    def fib():
        a, b = 0, 1
        while True:
            yield a
            a, b = b, a + b
    out: List[int] = []
    for v in fib():
        if v > n:
            break
        out.append(v)
    return out
''', [(20,)]),
('''
def f(xs: List[int]) -> bool:
    return any(x > 2 for x in xs) and all(x > 0 for x in xs)
''', [([1, 2, 3],), ([0, 5],)]),
('''
class Base:
    def value(self) -> int:
        return 1
    def twice(self) -> int:
        return self.value() * 2

class Child(Base):
    def value(self) -> int:
        return 5

def f(n: int) -> int:
    return Base().twice() + Child().twice() + n
''', [(0,)]),
('''
def f(a: int, b: int) -> Tuple[int, int, str, str, str]:
    q, r = divmod(a, b)
    return q, r, bin(a), oct(a), hex(a)
''', [(17, 5), (-17, 5)]),
('''
def f(x: complex) -> Tuple[float, float, complex]:
    y = x * (1 + 2j)
    return y.real, abs(y), y.conjugate()
''', [(1 + 1j,)]),
('''
def f(n: int) -> int:
    x = [i for i in range(n)]
    del x[1:3]
    x.extend([7, 8])
    x.insert(0, -1)
    x.remove(7)
    return sum(x) + x.index(8) + x.count(-1)
''', [(6,)]),
('''
def f(a: int, b: int = 2, *, c: int = 3) -> int:
    return a + b * c

def g(n: int) -> int:
    return f(n) + f(n, 4) + f(n, c=10) + f(n, b=1, c=1)
''', [(1,)]),
]


CASES += _BATCH1


# _BATCH2: corpus program 441 holds these


_BATCH3 = [
('''
def apply(fn, x: int) -> int:
    return fn(x)

def f(x: int) -> int:
    return apply(lambda v: v + 1, x)
''', [(2,)]),
('''
def f(xs: List[int]) -> Tuple[int, ...]:
    return tuple(xs)
''', [([1, 2],)]),
('''
def f(xs: List[int]) -> List[int]:
    return [y for x in xs if (y := x * 2) > 2]
''', [([1, 2, 3],)]),
('''
class Stack:
    def __init__(self):
        self.items: List[int] = []
    def push(self, x: int):
        self.items.append(x)
    def pop(self) -> int:
        return self.items.pop()
    def __len__(self) -> int:
        return len(self.items)
    def __iter__(self):
        for x in self.items:
            yield x

def f(n: int) -> List[int]:
    s = Stack()
    for i in range(n):
        s.push(i * i)
    s.pop()
    return [len(s)] + [x for x in s]
''', [(4,)]),
('''
from dataclasses import dataclass

@dataclass
class P:
    x: int
    y: int = 0
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

def f(a: int) -> Tuple[int, bool, str]:
    p = P(a, 2)
    q = P(a)
    return p.norm1(), p == P(a, 2), str(q)
''', [(-3,)]),
('''
def f(s: str) -> List[str]:
    return [s.title(), s.swapcase(), s.center(11, "*"), s.zfill(8), s.partition(" ")[2], s.rsplit(" ", 1)[0], f"{s!r:>12}"]
''', [("hello world",)]),
('''
def f(x: float) -> List[str]:
    return [f"{x:.3f}", f"{x:e}", f"{x:10.2f}|", f"{x:+}", "%5.1f" % x, "{:,}".format(1234567), f"{int(x):08b}", f"{x:%}"]
''', [(3.14159,), (-0.5,)]),
('''
def f(xs: List[int]) -> Dict[int, List[int]]:
    groups: Dict[int, List[int]] = {}
    for x in xs:
        groups.setdefault(x % 3, []).append(x)
    return {k: sorted(v) for k, v in sorted(groups.items())}
''', [([5, 3, 1, 4, 9],)]),
('''
def f(n: int) -> int:
    x = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            if (i + j) % 2:
                continue
            x += i * j
    else:
        x += 1000
    return x
''', [(5,)]),
('''
def f(a: Optional[int], b: Union[int, str]) -> str:
    if a is None:
        return "none"
    if isinstance(b, str):
        return b * a
    return str(a + b)
''', [(None, 1), (2, "ab"), (2, 3)]),
('''
def f(xs: List[List[int]]) -> List[int]:
    return [x for row in xs for x in row if x % 2 == 0]
''', [([[1, 2], [3, 4, 6]],)]),
('''
def f(n: int) -> List[int]:
    a = list(range(n))
    a[::2] = [0] * len(a[::2])
    b = a[:]
    b.reverse()
    return a + b
''', [(5,)]),
('''
def f(x: int, y: int) -> Tuple[int, int, int, int, bool]:
    return x // y, x % y, -x // y, x ** 2, x < y <= 10
''', [(7, 2), (-7, 3)]),
('''
def f(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        return -1
''', [("12",), ("x",)]),
('''
def f(n: int) -> List[int]:
    fs = [lambda x, i=i: x + i for i in range(n)]
    return [g(10) for g in fs]
''', [(3,)]),
('''
def f(xs: List[int]) -> Tuple[int, int, float]:
    return min(xs), max(xs, key=lambda v: abs(v)), round(sum(xs) / 3, 2)
''', [([3, -7, 2],)]),
('''
def f(s: str) -> List[str]:
    out: List[str] = []
    for i, ch in enumerate(reversed(s)):
        if ch.isupper():
            out.append(f"{i}:{ch}")
    return out
''', [("aBcDe",)]),
]


# left out: tuple(xs) of a list (a tuple of run-time length) and a list of lambdas typed
# only by later calls (docs/language.md §8)
CASES += [c for i, c in enumerate(_BATCH3) if i not in [1, 14]]


# _BATCH4: corpus program 442 holds these


_BATCH5 = [
('''
def f(x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor, int]:
    z = x @ y
    w = torch.zeros_like(x)
    w[0] = y
    w[1:, ::2] += 1.0
    return z, w, int(x.argmax())
''', [(A, B)]),
('''
def f(x: Tensor) -> List[float]:
    out: List[float] = []
    for row in x:
        out.append(float(row.sum()))
    return out
''', [(A,)]),
('''
def f(x: Tensor) -> Tensor:
    y = x.clone()
    y[y > 0.5] = 0.0
    y.clamp_(min=0.1)
    return y
''', [(A,)]),
('''
def f(x: Tensor) -> Tuple[Tensor, Tensor]:
    v, i = torch.topk(x, 2, dim=1)
    s, _ = torch.sort(x, dim=0, descending=True)
    return v + i.float(), s
''', [(A,)]),
('''
def f(x: Tensor, n: int) -> Tensor:
    acc = torch.zeros(x.size(1))
    for i in range(n):
        acc += x[i % x.size(0)] * float(i)
    return acc
''', [(A, 5)]),
('''
def f(x: Tensor) -> Dict[str, Tensor]:
    d: Dict[str, Tensor] = {}
    d["mean"] = x.mean(dim=0)
    d["std"] = x.std(dim=0)
    d["max"] = x.max(dim=1)[0]
    return d
''', [(A,)]),
('''
def f(x: Tensor) -> Tensor:
    y = torch.cat([x, x * 2], dim=0)
    z = torch.stack([y, y], dim=2)
    return z.permute(2, 0, 1).reshape(2, -1).t().contiguous()
''', [(A,)]),
('''
def f(x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
    if mask is not None:
        x = x.masked_fill(mask, -1.0)
    return torch.softmax(x, dim=-1)
''', [(A, None), (A, A > 0.5)]),
('''
def f(x: Tensor) -> Tensor:
    h = x
    h *= 2
    h -= x.mean()
    return x
''', [(A.clone(),)]),
('''
def f(x: Tensor) -> str:
    return str(x.shape) + " " + str(x.dtype) + " " + str(x.dim()) + " " + str(x.numel())
''', [(A,)]),
('''
def f(n: int) -> Tensor:
    t = torch.arange(n)
    t = t.view(-1, 1) * t.view(1, -1)
    return t.diagonal() + torch.eye(n, dtype=torch.long).sum(0)
''', [(4,)]),
('''
def f(x: Tensor) -> Tuple[bool, bool, Tensor]:
    return bool((x > 0).all()), bool((x > 0.9).any()), torch.where(x > 0.5, x, torch.zeros_like(x))
''', [(A,)]),
]


# left out: str(x.shape) prints [3, 4], not torch.Size([3, 4]) (docs/language.md §9)
CASES += [c for i, c in enumerate(_BATCH5) if i not in [9]]


_BATCH6 = [
('''
def f(s: str) -> List[bool]:
    return [s.isprintable(), s.isidentifier(), s.isascii(), s.isdecimal(), s.isnumeric(), s.istitle(), s.isspace(), s.isalnum()]
''', [("Hello",), ("12",), ("a b\\t",), ("",)]),
('''
def f(s: str) -> List[str]:
    return [s.casefold(), s.expandtabs(4), s.removeprefix("he"), s.removesuffix("lo"), s.ljust(8, "."), s.rjust(8), s.capitalize(), s.rstrip("o"), s.lstrip("h")]
''', [("hello",), ("he\\tllo",)]),
('''
def f(s: str) -> List[int]:
    return [s.find("l"), s.rfind("l"), s.index("e"), s.rindex("l"), s.count("l"), s.find("l", 3), s.find("z")]
''', [("hello",)]),
('''
def f(s: str) -> List[List[str]]:
    return [s.split(), s.split(",", 1), s.splitlines(), s.rsplit(",", 1), list(s.partition(",")), list(s.rpartition(","))]
''', [("a,b, c\\nd e",)]),
('''
def f(xs: List[str]) -> str:
    return "-".join(xs) + "|" + ",".join(sorted(xs, key=len)) + "|" + str(len(max(xs, key=len)))
''', [(["bb", "a", "ccc"],)]),
('''
def f(s: str) -> Tuple[bool, bool, str, str, int]:
    return s.startswith(("a", "b")), s.endswith("z", 0, 2), s.replace("a", "x", 1), s[::-1], ord(s[0])
''', [("abcab",)]),
('''
def f(n: int) -> List[str]:
    return [chr(65 + n), str(n).zfill(5), format(n, "x"), format(n, "08.3f"), f"{n:>6}", f"{n:^7}|", "{0}{1}{0}".format(n, "-"), f"{n=}"]
''', [(42,)]),
('''
def f(s: str) -> str:
    t = str.maketrans("abc", "xyz")
    return s.translate(t)
''', [("aabbcc",)]),
('''
def f(d: Dict[str, int]) -> str:
    return "{a}-{b}".format(**d) + "%(a)s" % d
''', [({"a": 1, "b": 2},)]),
]


CASES += _BATCH6


# _BATCH7: corpus program 443 holds these


_BATCH8 = [
('''
def f(xs: List[int]) -> Tuple[int, List[int]]:
    total = 0
    if (n := len(xs)) > 2:
        total += n
    ys = [(z := x * 2) + z for x in xs]
    print(z)
    return total + z, ys
''', [([1, 2, 3],)]),
('''
def f(xs: List[int]) -> int:
    g = lambda x: (y := x + 1) * y
    return sum(g(x) for x in xs)
''', [([1, 2],)]),
('''
def f(a: int) -> Tuple[int, int, List[int]]:
    first, *middle, last = [a, a + 1, a + 2, a + 3]
    (p, q), r = (a, a * 2), a * 3
    return first + last, p + q + r, middle
''', [(1,)]),
('''
def f(xs: List[int]) -> List[int]:
    ys = xs[:]
    del ys[::2]
    zs = list(range(10))
    zs[2:8:3] = [-1, -2]
    return ys + zs
''', [([1, 2, 3, 4, 5],)]),
('''
def f(n: int) -> str:
    for i in range(n):
        pass
    else:
        i = -1 if n == 0 else i
    try:
        v = 10 // n
    except ZeroDivisionError as e:
        return "zde " + str(e) + " " + str(i)
    return str(v) + " " + str(i)
''', [(0,), (3,)]),
('''
class E1(Exception):
    pass
class E2(E1):
    def __init__(self, msg: str, code: int):
        super().__init__(msg)
        self.code = code

def f(n: int) -> str:
    try:
        if n > 0:
            raise E2("bad", n)
        raise E1("plain")
    except E2 as e:
        return "E2 " + str(e) + " " + str(e.code)
    except E1 as e:
        return "E1 " + str(e)
''', [(1,), (0,)]),
('''
def f(xs: List[int]) -> Dict[str, int]:
    d = dict(a=1, b=2)
    d2 = dict([("c", 3)])
    d3 = dict(zip(["x", "y"], xs))
    d4 = {**d, **d2, "z": 0}
    return {**d3, **d4}
''', [([7, 8],)]),
('''
def f(s: Set[int], t: Set[int]) -> Tuple[List[int], bool, bool, int]:
    u = s.union(t)
    s2 = set(s)
    s2.discard(1)
    s2 ^= t
    return sorted(u & s2), s <= u, s.isdisjoint(t), len(s - t)
''', [({1, 2, 3}, {3, 4})]),
('''
def f(x: int) -> int:
    def outer() -> int:
        y = x
        def inner() -> int:
            nonlocal y
            y += 10
            return y
        inner()
        return inner()
    return outer()
''', [(1,)]),
('''
def f(xs: List[int]) -> List[Tuple[int, str]]:
    out = []
    for i, (a, b) in enumerate(zip(xs, map(str, xs))):
        out.append((i * a, b))
    return out
''', [([3, 4],)]),
]


CASES += _BATCH8


_BATCH9 = [
('''
@torch.jit.script
def helper(x: int) -> int:
    return x + 1

def f(x: int) -> Tuple[int, bool, bool]:
    return helper(x), torch.jit.is_scripting(), torch.jit.is_tracing()
''', [(1,)]),
('''
def f(x: int) -> List[int]:
    a = torch.jit.annotate(List[int], [])
    a.append(x)
    b: Optional[int] = None
    if x > 0:
        b = x
    return a + [b if b is not None else -1]
''', [(1,), (0,)]),
('''
def f(x: Tensor) -> Tensor:
    if not torch.jit.is_scripting():
        return x * 2
    return x * 2
''', [(torch.ones(2),)]),
('''
def f(x: int) -> str:
    try:
        raise torch.jit.Error("boom")
    except Exception as e:
        return "caught"
''', [(1,)]),
('''
def f(xs: List[Tensor]) -> Tensor:
    return torch.stack(xs).sum(0) if len(xs) > 0 else torch.zeros(1)
''', [([torch.ones(2), torch.ones(2)],), ([],)]),
('''
def f(x: Tensor) -> Tuple[List[int], int, str]:
    return list(x.size()), x.size(-1), x.device.type
''', [(torch.ones(2, 3),)]),
('''
def f(x: int) -> float:
    assert x > 0, "x must be positive"
    return float(x) / 3
''', [(3,), (-1,)]),
('''
def f(x: Tensor) -> int:
    n = 0
    for _ in range(x.size(0)):
        n += 1
    return n + int(x.numel())
''', [(torch.ones(4, 2),)]),
]


# left out: @torch.jit.script on a def inside a source string (CPython cannot script it)
CASES += [c for i, c in enumerate(_BATCH9) if i not in [0]]


_BATCH10 = [
('''
def f(x: int) -> str:
    try:
        if x > 0:
            raise torch.jit.Error("boom " + str(x))
        return "none"
    except torch.jit.Error as e:
        return "caught " + str(e)
''', [(1,), (0,)]),
('''
def f(x: int) -> int:
    if x > 0:
        raise torch.jit.Error("boom")
    return x
''', [(1,), (0,)]),
]


CASES += _BATCH10


_BATCH12 = [
('''
def f(x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor, Tensor, List[int]]:
    q = x // y
    r = torch.rsub(x, y)
    t = torch.tensordot(x, y.t(), dims=1)
    return q, r, t, torch.argmax(x, 1).tolist()
''', [(torch.tensor([[5.0, 7.0], [9.0, 2.0]]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]))]),
('''
def f(n: int) -> Tuple[Tensor, Tensor]:
    return torch.tril_indices(n, n), torch.triu_indices(n, n, 1)
''', [(3,)]),
('''
def f(x: Tensor) -> Tuple[Tensor, Tensor, bool, bool]:
    return x[..., 0], x[0, ...], 2.0 in x, 10.0 in x
''', [(torch.arange(8.0).reshape(2, 2, 2),)]),
('''
def f(d: torch.device, x: Tensor) -> str:
    y = x.to(d)
    return str(d) + " " + str(y.device) + " " + d.type
''', [(torch.device("cpu"), torch.ones(1))]),
('''
def f(xs: Tuple[int, ...]) -> int:
    return sum(xs) + len(xs)
''', [((1, 2, 3),), ((),)]),
('''
def f(x: Any) -> str:
    if isinstance(x, int):
        return "int " + str(x + 1)
    return "other"
''', [(3,), ("s",)]),
('''
def f(n: int) -> Tuple[int, int, str, str, str]:
    s = slice(1, n, 2)
    xs = list(range(10))
    q, r = divmod(n, 3)
    return len(xs[s]), hash(n) == hash(n), bin(n), oct(n), hex(n)
''', [(7,)]),
('''
def f(x: Tensor) -> Tuple[Tensor, Tensor]:
    q, r = divmod(x, 3)
    return q, r
''', [(torch.tensor([7, -7, 9]),)]),
('''
def f(a: complex, b: complex) -> Tuple[complex, float, bool, str]:
    import cmath
    return a * b / (a - b), cmath.phase(a), a == b, f"{a}"
''', [(1 + 2j, 3 - 1j)]),
('''
def f(x: Tensor) -> Tuple[Tensor, Tensor, Tensor]:
    z = torch.complex(x, x * 2)
    return torch.view_as_real(z), z.abs(), z.conj().imag
''', [(torch.tensor([1.0, 2.0]),)]),
]

# left out: a bool returned for an int (a static type error in ember) and divmod of a tensor
# (CPython's TypeError; ember: the tensor's number)
CASES += [c for i, c in enumerate(_BATCH12) if i not in [6, 7]]


_BATCH15 = [
('''
def f(words: List[str]) -> List[Tuple[str, int]]:
    freq: Dict[str, int] = {}
    for w in words:
        freq[w] = freq.get(w, 0) + 1
    return sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
''', [(["a", "b", "a", "c", "b", "a"],)]),
('''
def f(n: int) -> List[List[int]]:
    grid = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            grid[i][j] = i * j
    return [row[::-1] for row in grid if sum(row) > 0]
''', [(3,)]),
('''
def f(s: str) -> bool:
    stack: List[str] = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
''', [("([]{})",), ("(]",), ("((",)]),
('''
def f(xs: List[int]) -> List[int]:
    def merge(a: List[int], b: List[int]) -> List[int]:
        out: List[int] = []
        i = j = 0
        while i < len(a) and j < len(b):
            if a[i] <= b[j]:
                out.append(a[i]); i += 1
            else:
                out.append(b[j]); j += 1
        return out + a[i:] + b[j:]
    def sort(v: List[int]) -> List[int]:
        if len(v) <= 1:
            return v
        m = len(v) // 2
        return merge(sort(v[:m]), sort(v[m:]))
    return sort(xs)
''', [([5, 2, 9, 1, 5, 6],)]),
('''
def f(n: int) -> Dict[int, List[int]]:
    return {k: [v for v in range(k)] for k in range(n) if k % 2}
''', [(6,)]),
('''
def f(a: List[int], b: List[int]) -> Tuple[List[int], List[int], bool]:
    sa, sb = set(a), set(b)
    return sorted(sa & sb), sorted(sa ^ sb), sa.issubset(sb)
''', [([1, 2, 3], [2, 3, 4])]),
('''
def f(x: float) -> str:
    parts = []
    for p in [0, 1, 2]:
        parts.append(f"{x:.{p}f}")
    return " | ".join(parts) + f" {x!r} {x:>8.2e}"
''', [(3.14159,)]),
('''
def f(xs: List[Optional[int]]) -> Tuple[int, int]:
    total = 0
    missing = 0
    for x in xs:
        if x is None:
            missing += 1
            continue
        total += x
    return total, missing
''', [([1, None, 3, None],)]),
('''
def f(s: str) -> Tuple[str, ...]:
    a, b, c = s.split(",")
    return (c, b, a)
''', [("x,y,z",)]),
('''
def f(n: int) -> int:
    memo: Dict[int, int] = {}
    def fib(k: int) -> int:
        if k < 2:
            return k
        if k in memo:
            return memo[k]
        r = fib(k - 1) + fib(k - 2)
        memo[k] = r
        return r
    return fib(n)
''', [(30,)]),
('''
def f(xs: List[float]) -> List[float]:
    m = max(xs)
    exps = [2.718281828 ** (x - m) for x in xs]
    s = sum(exps)
    return [round(e / s, 4) for e in exps]
''', [([1.0, 2.0, 3.0],)]),
('''
def f(n: int) -> List[str]:
    out = []
    for i in range(1, n + 1):
        out.append("FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i))
    return out
''', [(15,)]),
('''
def f(m: List[List[int]]) -> List[List[int]]:
    return [list(r) for r in zip(*m)]
''', [([[1, 2], [3, 4], [5, 6]],)]),
('''
def f(xs: List[int]) -> Tuple[int, ...]:
    return tuple(sorted(set(xs)))
''', [([3, 1, 3],)]),
]

# left out: zip(*m) and tuple(xs) of lists (tuples of run-time length, docs/language.md §8)
CASES += [c for i, c in enumerate(_BATCH15) if i not in [12, 13]]
