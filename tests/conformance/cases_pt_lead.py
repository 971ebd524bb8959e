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
def make_counter() -> int:
    count = 0
    def inc() -> int:
        nonlocal count
        count += 1
        return count
    inc()
    inc()
    return inc()

def f(n: int) -> int:
    return make_counter() + n
''', [(1,)]),
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
class Animal:
    def __init__(self, name: str):
        self.name = name
    def speak(self) -> str:
        return self.name + " makes a sound"

class Dog(Animal):
    def __init__(self, name: str, breed: str):
        super().__init__(name)
        self.breed = breed
    def speak(self) -> str:
        return self.name + " barks (" + self.breed + ")"

def f(n: str) -> List[str]:
    a = Animal(n)
    d = Dog(n, "lab")
    return [a.speak(), d.speak()]
''', [("rex",)]),
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


_BATCH2 = [
('''
def f(xs: List[int], k: int) -> List[int]:
    def scaled(m: int):
        for x in xs:
            yield x * k * m
    k += 1
    out = [v for v in scaled(2)]
    out.append(sum(scaled(1)))
    return out + list(scaled(3))
''', [([1, 2, 3], 2)]),
('''
def f(n: int) -> List[int]:
    state = [0]
    def ticks():
        while state[0] < n:
            state[0] += 1
            yield state[0]
    seen: List[int] = []
    for t in ticks():
        if t == 2:
            state[0] += 1
        seen.append(t)
    return seen
''', [(6,)]),
('''
def f(words: List[str]) -> Dict[str, int]:
    def pairs():
        for w in words:
            yield w, len(w)
    return dict(pairs())
''', [(["ab", "c"],)]),
('''
def f(n: int) -> int:
    limit = 3
    def evens():
        i = 0
        while True:
            if i > limit:
                return
            yield i * 2
            i += 1
    total = 0
    for e in evens():
        total += e
    limit = 10
    return total + max(evens())
''', [(0,)]),
('''
def outer(n: int) -> List[int]:
    def inner(m: int) -> List[int]:
        def gen():
            for i in range(m):
                yield i + n
        return list(gen())
    return inner(3)
''', [(10,)]),
('''
def f(xs: List[int]) -> List[Tuple[int, int]]:
    def idx():
        for i in range(len(xs)):
            yield i
    return [(i, x) for i, x in enumerate(idx())] + [(x, x) for x in idx() if x > 0]
''', [([5, 6, 7],)]),
]


CASES += _BATCH2


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
def f(x: int) -> str:
    match x:
        case 0:
            return "zero"
        case 1 | 2:
            return "small"
        case _:
            return "big"
''', [(0,), (2,), (9,)]),
('''
def f(x: int) -> List[str]:
    log: List[str] = []
    try:
        if x > 0:
            raise ValueError("pos")
        log.append("ok")
    except ValueError as e:
        log.append("err " + str(e))
    finally:
        log.append("done")
    return log
''', [(1,), (-1,)]),
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
class Shape:
    def area(self) -> float:
        raise NotImplementedError("abstract")

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

def f(a: float) -> List[float]:
    shapes: List[Shape] = [Sq(a), Circle(a)]
    return [s.area() for s in shapes]
''', [(2.0,)]),
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
CASES += [c for i, c in enumerate(_BATCH3) if i not in [1, 17]]


_BATCH4 = [
('''
def my_map(fn, xs: List[int]) -> List[int]:
    return [fn(x) for x in xs]

def my_filter(pred, xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        if pred(x):
            out.append(x)
    return out

def f(xs: List[int], k: int) -> List[int]:
    return my_map(lambda v: v * k, xs) + my_filter(lambda v: v % 2 == 0, xs)
''', [([1, 2, 3, 4], 3)]),
('''
def compose(f, g, x: float) -> float:
    return f(g(x))

def twice(fn, x):
    return fn(fn(x))

def f(x: float) -> float:
    return compose(lambda a: a * 2.0, lambda b: b + 1.0, x)
''', [(1.5,)]),
('''
def reduce_(fn, xs: List[int], init: int) -> int:
    acc = init
    for x in xs:
        acc = fn(acc, x)
    return acc

def f(xs: List[int]) -> Tuple[int, int]:
    return reduce_(lambda a, b: a + b, xs, 0), reduce_(lambda a, b: max(a, b), xs, -100)
''', [([3, 9, 2],)]),
('''
def apply_str(fn, s: str) -> str:
    return fn(s)

def f(s: str) -> str:
    return apply_str(lambda t: t.upper() + "!", s)
''', [("hi",)]),
]
_BATCH4 += [
('''
def apply(fn, x: int) -> int:
    return fn(x)

def f(x: int) -> int:
    return apply(x=x, fn=lambda v: v - 1) + apply(lambda v: v * 2, x=x)
''', [(5,)]),
]


CASES += _BATCH4


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


_BATCH7 = [
('''
def f(d: Dict[str, float], s: str) -> List[str]:
    return [s.format(**d), s.format_map(d), "{x:.2f}".format_map(d)]
''', [({"x": 1.5, "y": 2.0}, "{y}/{x}"), ({"x": 1.5}, "{y}")]),
('''
def f(s: str) -> List[str]:
    t = str.maketrans("lo", "01")
    return [s.translate(t), s.translate({108: "L", 111: ""}), str(t)]
''', [("hello world",)]),
('''
def f(a: str, b: str) -> str:
    return "x".translate(str.maketrans(a, b))
''', [("x", "y"), ("xy", "z")]),
]


CASES += _BATCH7


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


# left out: an exception class with an __init__ and fields (docs/language.md §8)
CASES += [c for i, c in enumerate(_BATCH8) if i not in [5]]


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
