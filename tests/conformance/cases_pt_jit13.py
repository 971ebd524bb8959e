"""TorchScript checkScript-style cases for the later test_jit.py's decorators and
builtins (torch.jit._overload, unused, ignore, torch._assert of a tensor, is_scripting,
_unwrap_optional, Final, functions in lists, nested defs, filtered comprehensions, str and
list methods, conversions); the programs and inputs are ember's own."""

import torch

CASES = [
('''
@torch.jit._overload
def test_simple(x1):
    # type: (int) -> int
    pass

@torch.jit._overload
def test_simple(x1):
    # type: (float) -> float
    pass

def test_simple(x1):
    return x1

def f(a: int, b: float):
    return test_simple(a), test_simple(b)
''', [(1, 2.5)]),
('''
@torch.jit.unused
def unused_fn(x: int) -> int:
    return x + 100

def f(x: int, flag: bool):
    if flag:
        return unused_fn(x)
    return x
''', [(1, False)]),
('''
@torch.jit.ignore
def ignored(x: int) -> int:
    return x * 3

def f(x: int):
    return ignored(x) + 1
''', [(2,)]),
('''
def f(x: Tensor):
    torch._assert(x.sum() > 0, "must be positive")
    assert x.numel() > 0
    return x
''', [(torch.ones(2),), (-torch.ones(2),)]),
('''
def f(x: int):
    if torch.jit.is_scripting():
        return x
    return x
''', [(3,)]),
('''
def f(x: Optional[int]):
    return torch.jit._unwrap_optional(x) + 1
''', [(3,), (None,)]),
('''
def f(x: List[int]) -> Tuple[int, int]:
    a: int = 0
    b: Final[int] = 2
    for i in x:
        a += i * b
    return a, b
''', [([1, 2],)]),
('''
def g(x: int) -> int:
    return x + 1

def f(x: int):
    fns = [g, g]
    return fns[0](x)
''', [(1,)]),
('''
def f(x: int):
    def inner(y: int) -> int:
        return y * 2
    return inner(x) + inner(1)
''', [(3,)]),
('''
def f(xs: List[int]):
    return [x for x in xs if x % 2 == 0 if x > 2], {x % 3 for x in xs}
''', [([1, 2, 3, 4, 6],)]),
('''
def f(x: int):
    l = [lambda_free for lambda_free in range(x)]
    return l, len(l), l[-1] if l else None
''', [(3,), (0,)]),
('''
def f(s: str):
    return s.encode if False else len(s), s.count("a", 1), s.index("b") if "b" in s else -1, s.expandtabs(4), s.casefold()
''', [("abab\\tb",)]),
('''
def f(a: List[int]):
    a.sort(reverse=True)
    b = sorted(a, key=None) if False else sorted(a)
    c = a[::-2]
    return a, b, c, a.count(1), min(a, default=0) if False else min(a)
''', [([3, 1, 2, 1],)]),
('''
def f(x: float):
    return int(x), int(-x), float(int(x)), bool(x), str(int(x)), round(x), math.floor(-x)
''', [(2.7,), (0.0,)]),
('''
def f(d: Dict[str, List[int]]):
    total = 0
    for k, v in sorted(d.items()):
        for x in v:
            total += x
    keys = [k for k in d.keys() if len(d[k]) > 1]
    return total, keys, {k: len(v) for k, v in d.items()}
''', [({"a": [1, 2], "b": [3]},)]),
('''
def f(x: Tensor):
    out = torch.empty(0)
    for row in x:
        out = torch.cat([out, row * 2])
    return out, [r.sum().item() for r in x.unbind(0)]
''', [(torch.arange(6.0).reshape(2, 3),)]),
]
