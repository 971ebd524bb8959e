"""f(*xs) of a list into a *args function (args is then the list's copy), f(*t) of a
tuple, f(**{...}) of a display, f(**d) of a dict variable into a **kwargs function, as
CompilationUnit sources."""

import torch
CASES = [
('''
def total(*args: int) -> int:
    return sum(args)

def f(xs: List[int]):
    return total(*xs)
''', [([1, 2, 3],), ([],)]),
('''
def show(**kw: int) -> str:
    return ",".join(k + "=" + str(v) for k, v in kw.items())

def f(d: Dict[str, int]):
    return show(**d), show(a=1, **d)
''', [({"x": 1, "y": 2},)]),
('''
def g(a: int, b: int, c: int = 0) -> int:
    return a * 100 + b * 10 + c

def f(xs: List[int], d: Dict[str, int]):
    t = (1, 2)
    return g(*t), g(*t, c=5), g(**{"a": 1, "b": 2}), g(1, **{"b": 3})
''', [([1, 2, 3], {"b": 1})]),
]
CASES += [
('''
def total(base: int, *args: int, scale: int = 1) -> int:
    s = base
    for a in args:
        s += a
    return s * scale + len(args)

def f(xs: List[int]):
    ys = xs + [10]
    return total(0, *xs), total(1, *ys, scale=2), total(5), total(2, 3, 4)
''', [([1, 2, 3],), ([],)]),
]

CASES += [
('''
def show(**kw: int) -> str:
    return ",".join(k + "=" + str(v) for k, v in kw.items())

def f(d: Dict[str, int]):
    return show(**d), show(a=1, **d)
''', [({"x": 1, "y": 2},), ({},), ({"a": 5},)]),
('''
def g(a: int, b: int = 2, **rest: int) -> str:
    return str(a) + "/" + str(b) + "/" + str(sorted(rest.items()))

def f(d: Dict[str, int]):
    return g(1, **d)
''', [({"b": 7, "z": 1},), ({},), ({"a": 3},)]),
('''
def g(a: int, **rest: int) -> int:
    return a + len(rest)

def f(d: Dict[str, int]):
    return g(**d)
''', [({"a": 4, "q": 1},), ({"q": 1},)]),
]
