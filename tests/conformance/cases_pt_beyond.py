"""Python beyond TorchScript, written as CompilationUnit sources: starred assignment,
slice assignment, nonlocal, iterators, sets, walrus (in while tests too), inheritance,
user exceptions with raise-from, *args/**kwargs, generators, lambda defaults."""

import torch

CASES = [
    ('''
def f(xs: List[int]):
    a, *rest = xs
    *init, last = xs
    b, *mid, c = xs
    return a, rest, init, last, b, mid, c
''', [([1, 2, 3, 4],)]),
    ('''
def f(xs: List[int]):
    xs[1:3] = [9, 9, 9]
    del xs[0]
    xs[::2] = [0] * len(xs[::2])
    return xs
''', [([1, 2, 3, 4, 5],)]),
    ('''
def counter():
    n = 0
    def inc() -> int:
        nonlocal n
        n += 1
        return n
    return inc

def f(k: int):
    c = counter()
    for _ in range(k):
        c()
    return c()
''', [(3,)]),
    ('''
def f(xs: List[int]):
    m = map(lambda v: v * 2, xs)
    fl = filter(lambda v: v > 2, list(m))
    return list(fl), list(enumerate(xs, 1)), list(zip(xs, xs[1:])), list(reversed(xs))
''', [([1, 2, 3],)]),
    ('''
def f(xs: List[int]):
    s = {x % 3 for x in xs}
    t = set(xs) | {10}
    return sorted(s), sorted(t - s), len(s & t), 10 in t, sorted(s ^ {0, 5})
''', [([1, 2, 3, 4, 5],)]),
    ('''
def f(n: int):
    total = 0
    while (k := n // 2) > 0:
        total += k
        n = k
    return total, [y for x in range(5) if (y := x * x) > 3]
''', [(20,)]),
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
        return super().speak() + " (woof)"

def f(s: str):
    d = Dog(s, "lab")
    a: Animal = d
    return d.speak(), d.breed, a.speak()
''', [('rex',)]),
    ('''
class MyError(Exception):
    pass

def g(x: int) -> int:
    try:
        return 10 // x
    except ZeroDivisionError as e:
        raise MyError("bad x") from e

def f(x: int):
    try:
        return str(g(x))
    except MyError as e:
        return "caught " + str(e)
''', [(0,), (2,)]),
    ('''
def f(n: int, *args: int, scale: int = 1, **kw: int):
    return (n + sum(args)) * scale, sorted(kw.items())

def h():
    return f(1, 2, 3, scale=2, a=1, b=2), f(5)
''', [()]),
    ('''
def f(n: int):
    for i in range(n):
        pass
    return i
''', [(3,)]),
    ('''
def gen(xs: List[int]):
    for x in xs:
        if x % 2 == 0:
            yield x
    yield from [100, 200]

def f(xs: List[int]):
    return list(gen(xs)), sum(x * x for x in xs), any(x > 2 for x in xs), max(gen(xs))
''', [([1, 2, 3, 4],)]),
    ('''
def f(d: Dict[str, int]):
    x = 0
    def add(k: str) -> None:
        nonlocal x
        x += d[k]
    for k in d:
        add(k)
    return x
''', [({'a': 1, 'b': 5},)]),
    ('''
def f(x: int):
    fs: List[Callable[[int], int]] = []
    for i in range(3):
        fs.append(lambda y, i=i: y + i)
    return [g(x) for g in fs]
''', [(1,)]),
    ('''
def make_adder(n: int):
    def add(x: int) -> int:
        return x + n
    return add

def f(x: int):
    adders = [make_adder(i) for i in range(3)]
    return [a(x) for a in adders]
''', [(10,)]),
    ('''
def f(xs: List[int]):
    return sorted(xs, key=lambda v: -v), sorted(xs, reverse=True), min(xs, key=lambda v: abs(v - 2))
''', [([1, 5, 3],)]),
    ('''
def f(xs: List[str]):
    return dict(enumerate(xs)), {v: k for k, v in enumerate(xs)}, list(map(str.upper, xs)), list(map(len, xs))
''', [(['a', 'bb'],)]),
    ('''
def f(a: int, b: int):
    q, r = divmod(a, b)
    return q, r, pow(a, 2, 7), round(a / b, 2), abs(-a), a ** -1 if False else 0
''', [(17, 5)]),
 ('''
def f(x: int):
    match x:
        case 1:
            return "one"
        case 2 | 3:
            return "few"
        case _:
            return "many"
''', [(1,), (3,), (9,)]),
]

CASES += [
    ('''
def f(x: float, n: int):
    return x.is_integer(), x.as_integer_ratio(), x.hex(), n.bit_length(), n.bit_count(), n.as_integer_ratio()
''', [(2.0, 10), (0.1, -7), (-3.5, 0), (float("inf"), 1)]),
]

CASES += [
    ('''
COUNT = 0

def bump(k: int) -> int:
    global COUNT
    COUNT += k
    return COUNT

def f(k: int) -> Tuple[int, int]:
    return bump(k), bump(1) + COUNT
''', [(2,), (3,), (0,)]),
]
