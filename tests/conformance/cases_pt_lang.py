"""TorchScript checkScript-style cases written for ember (pt lang); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
CASES = [
('''
def f(x, y):
    # type: (int, float) -> float
    return x + y
''', [(1, 2.0)]),
('''
def f(x,  # type: int
      y,  # type: List[int]
      ):
    # type: (...) -> int
    return x + len(y)
''', [(1, [2])]),
('''
def f(x):  # type: (Tensor) -> Tensor
    return x + 1
''', [(torch.ones(1),)]),
('''
def f(x):
    # type: (Optional[int]) -> int
    if x is None:
        return 1
    return x
''', [(None,), (2,)]),
('''
def f(x, y):
    # type: (Tensor, Tuple[int, int]) -> Tensor
    a, b = y
    return x * a + b
''', [(torch.ones(1), (2, 3))]),
('''
def f(x):
    # type: (int)
    return x
''', [(3,)]),
('''
def f(x: int) -> int:
    y = torch.jit.annotate(int, x)
    z = torch.jit.annotate(Optional[int], None)
    if z is None:
        return y
    return z
''', [(3,)]),
('''
def f(x: int) -> bool:
    return torch.jit.is_scripting()
''', [(3,)]),
('''
def f(x: Tensor) -> Tensor:
    fut = torch.jit.fork(torch.neg, x)
    return torch.jit.wait(fut)
''', [(torch.ones(1),)]),
('''
def g(x: Tensor) -> Tensor:
    return x * 2

def f(x: Tensor) -> Tensor:
    fut = torch.jit._fork(g, x)
    y = g(x)
    return torch.jit._wait(fut) + y
''', [(torch.ones(1),)]),
('''
def f(x: List[int]) -> bool:
    return torch.jit.isinstance(x, List[int])
''', [([1],)]),
('''
def f(n: int) -> int:
    s = 0
    i = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 2 == 0:
            continue
        s += i
    return s
''', [(10,)]),
('''
def f(n: int) -> List[int]:
    return [i for i in range(n, 0, -2)]
''', [(10,), (3,)]),
('''
def f(n: int) -> int:
    s = 0
    for i in range(n):
        for j in range(i):
            s += j
        else:
            s += 100
    return s
''', [(4,)]),
('''
def f(x: List[str]) -> str:
    s = ""
    for i, c in enumerate(x, 1):
        s += str(i) + c
    return s
''', [(["a", "b"],)]),
('''
def f(x: List[int], y: List[str]) -> List[str]:
    return [str(a) + b for a, b in zip(x, y)]
''', [([1, 2, 3], ["a", "b"])]),
('''
def f(x: int) -> str:
    return "%d apples and %s and %.2f" % (x, "pears", 1.5)
''', [(3,)]),
('''
def f(x: int) -> str:
    return "value: %d" % x
''', [(3,)]),
('''
def f(x: str) -> str:
    return "{} and {}".format(x, 1) + "{0}{1}{0}".format("a", "b") + "{:>5}".format(x)
''', [("hi",)]),
('''
def f(x: float) -> str:
    return f"{x:.3f} {x!r} {x:e} {int(x):05d} {x:10.2f}|"
''', [(3.14159,)]),
('''
def f(x: Tensor) -> str:
    return "{}".format(x)
''', [(torch.ones(2),)]),
('''
def f(x: List[int]) -> str:
    return "{} {}".format(x, (1, "a"))
''', [([1, 2],)]),
('''
def f(x: int):
    print("x is", x, "and", [x], {"a": x}, (x, 1.5), None, True)
''', [(3,)]),
('''
def f(x: Tensor):
    print(x)
    print(x.sum(), x.shape)
''', [(torch.arange(3.),)]),
('''
def f(x: str) -> List[str]:
    return [x.upper(), x.lower(), x.strip(), x.lstrip("a"), x.rstrip(), x.title(), x.capitalize(), x.swapcase()]
''', [(" aBc de ",)]),
('''
def f(x: str) -> List[bool]:
    return [x.isdigit(), x.isalpha(), x.isalnum(), x.isspace(), x.isupper(), x.islower(), x.istitle(), x.isidentifier(), x.isdecimal(), x.isnumeric(), x.isprintable()]
''', [("abc",), ("12",), (" ",), ("Ab Cd",)]),
('''
def f(x: str) -> List[int]:
    return [x.find("a"), x.rfind("a"), x.count("a"), x.index("b"), x.rindex("a"), len(x), ord(x[0])]
''', [("abcab",)]),
('''
def f(x: str) -> List[str]:
    return x.split() + x.split(",") + x.split(",", 1) + x.rsplit(",", 1) + x.splitlines() + x.partition(",") + x.rpartition(",")
''', [("a,b c,d",)]),
('''
def f(x: str) -> List[str]:
    return [x.replace("a", "b"), x.replace("a", "c", 1), x.center(9, "*"), x.ljust(6, "-"), x.rjust(6), x.zfill(7), x.expandtabs(), x[::-1], x[1:-1], x * 2]
''', [("aaxy",)]),
('''
def f(x: str) -> List[bool]:
    return [x.startswith("a"), x.endswith("y"), x.startswith(("q", "a")), "ax" in x, x == "aaxy", x < "b"]
''', [("aaxy",)]),
('''
def f(x: List[str]) -> str:
    return ",".join(x) + "".join(reversed(x)) + chr(65) + str(ord("z"))
''', [(["a", "b"],)]),
('''
def f(x: str) -> str:
    out = ""
    for c in x:
        if c.isalpha():
            out += c
    return out
''', [("a1b2",)]),
('''
def f(x: int) -> List[str]:
    return [bin(x), oct(x), hex(x), str(x), repr("a'b"), str(1.0), str(1e20), str(1e-5), str(0.1 + 0.2)]
''', [(255,), (-3,)]),
('''
def f(x: float) -> List[str]:
    return [str(x), repr(x), "{}".format(x), f"{x}"]
''', [(1.0,), (1e16,), (float("nan"),), (-0.0,), (123456789.123,)]),
('''
def f(x: List[float]) -> str:
    return str(x)
''', [([1.0, 2.5, 1e-7],)]),
('''
def f(a: List[int]) -> List[int]:
    b = a[:]
    b.reverse()
    b.sort()
    c = sorted(a, reverse=True)
    return b + c + a[1:3] + a[-2:] + a[::2]
''', [([3, 1, 2, 5],)]),
('''
def f(a: List[int]) -> List[int]:
    a.insert(0, 9)
    a.remove(3)
    a.extend([7, 7])
    x = a.pop(1)
    a.append(x)
    del a[0]
    return a
''', [([3, 1, 2, 5],)]),
('''
def f(a: List[int]) -> List[int]:
    a[1:3] = [0, 0, 0]
    return a
''', [([3, 1, 2, 5],)]),
('''
def f(a: List[List[int]]) -> int:
    s = 0
    for row in a:
        for v in row:
            s += v
    return s + sum([len(r) for r in a])
''', [([[1, 2], [3]],)]),
('''
def f(a: List[Tensor]) -> Tensor:
    return torch.stack(a).sum(0)
''', [([torch.ones(2), torch.zeros(2)],)]),
('''
def f(a: List[int]) -> List[int]:
    return a * 2 + 2 * a + [0] * 3
''', [([1, 2],)]),
('''
def f(a: List[int]) -> Tuple[int, int, int, bool, bool]:
    return min(a), max(a), a.count(1), any(a), all(a)
''', [([1, 2, 1, 0],)]),
('''
def f(a: List[float]) -> List[float]:
    a.sort(reverse=True)
    return a
''', [([1.5, -2.0, 3.0],)]),
('''
def f(a: List[str]) -> List[str]:
    return sorted(a, key=len)
''', [(["bbb", "a", "cc"],)]),
('''
def f(a: List[int]) -> List[List[int]]:
    return [[x, y] for x in a for y in a if x < y]
''', [([1, 2, 3],)]),
('''
def f(a: List[int]) -> List[int]:
    return list(map(lambda x: x * 2, a)) + list(filter(lambda x: x > 1, a))
''', [([1, 2, 3],)]),
('''
def f(a: List[int]) -> int:
    x = 0
    for i in range(len(a)):
        x += a[i] * i
    return x
''', [([1, 2, 3],)]),
('''
def f(a: int, b: int) -> Tuple[int, int]:
    return divmod(a, b)
''', [(7, 2), (-7, 2)]),
('''
def f(a: float, b: float) -> Tuple[float, float]:
    return divmod(a, b)
''', [(7.5, 2.0), (-7.0, 2.5)]),
('''
def f(a: List[int]) -> List[int]:
    return list(range(a[0])) + list(reversed(a)) + [a.index(3)]
''', [([3, 1, 2],)]),
('''
def f(a: List[bool]) -> List[bool]:
    return [not x for x in a]
''', [([True, False],)]),
('''
def f(x: int) -> int:
    y = x
    y += 1; y *= 2; y -= 1; y //= 3; y **= 2; y %= 7; y <<= 2; y >>= 1; y |= 1; y &= 7; y ^= 2
    return y
''', [(5,)]),
('''
def f(x: float) -> float:
    y = x
    y /= 2
    y += 1
    return y
''', [(5.0,)]),
('''
def f(x: int) -> int:
    return x if x > 0 else -x if x < -5 else 0
''', [(5,), (-6,), (-2,)]),
('''
def f(x: List[int]) -> List[int]:
    y = x
    y.append(1)
    z = x.copy()
    z.append(2)
    return x + z
''', [([0],)]),
('''
def f(x: str) -> str:
    return x[0] + x[-1] + x[1:2] + x[::2]
''', [("abcdef",)]),
('''
def f(x: str) -> int:
    return len(x.encode("utf-8")) if False else len(x)
''', [("abc",)]),
]

# left out: what differs by design or is not implemented (the reason for each)
_LEFT_OUT = {
    7: 'torch.jit.is_scripting() is True in ember, False in CPython',
    8: 'torch.jit.fork of a builtin',
    9: 'torch.jit._fork / _wait are not implemented',
    23: "print of x.shape is a list's text, as in TorchScript",
    27: 'the case adds a list and a tuple (a TypeError in CPython)',
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]
