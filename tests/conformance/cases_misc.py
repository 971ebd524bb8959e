"""Miscellany: dtypes, devices, shapes, printing, global constants, nested functions."""

CASES = [
    ('''
def f():
    x = torch.zeros(2, dtype=torch.float64)
    return str(x.dtype), x.dtype == torch.double, x.dtype is torch.float64
''', [()]),
    ('''
def f():
    return str(torch.float), str(torch.int64), str(torch.bool)
''', [()]),
    ('''
def f():
    x = torch.ones(2, 3)
    a, b = x.shape
    return a * b
''', [()]),
    ('''
def f():
    x = torch.ones(2)
    return str(x.device), x.device.type, x.is_cuda
''', [()]),
    ('''
def f():
    print(torch.tensor([1, 2]))
''', [()]),
    ('''
def f():
    print(torch.tensor([1.5, 2.0]))
''', [()]),
    ('''
def f():
    return str(torch.tensor(3))
''', [()]),
    ('''
def f():
    x = torch.tensor([1.0, 2.0])
    return "t=" + str(x.tolist()) + " n=%d" % x.numel()
''', [()]),
    ('''
def f():
    x = torch.arange(3)
    return x.dtype == torch.long, x.float().dtype == torch.float32
''', [()]),
    ('''
def f():
    return torch.jit.is_scripting() or True, torch.jit.is_tracing()
''', [()]),
    ('''
def f(x: int):
    def g(y: int) -> int:
        return y * x
    def h(z: int) -> int:
        return g(z) + 1
    return h(3)
''', [(2,)]),
    ('''
def f(xs: List[int]):
    return sorted(xs, key=lambda v: -v), max(xs, key=lambda v: v % 3)
''', [([1, 5, 3],)]),
    ('''
def f(xs: List[str]):
    return sorted(xs, key=len), min(xs, key=len)
''', [(["ccc", "a", "bb"],)]),
    ('''
def f():
    x = 10
    y = x if x > 5 else 0
    z = [y] * 2
    z[0] += 1
    return z
''', [()]),
    ('''
def f(a: int):
    b = a
    for i in range(3):
        b += i
    else:
        b *= 2
    return b
''', [(1,)]),
    ('''
def f(s: str):
    words = s.split()
    counts: Dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
''', [("b a b c a b",)]),
    ('''
def f(n: int):
    out: List[str] = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return ",".join(out)
''', [(15,)]),
    ('''
def f(xs: List[int]):
    return [i for i in xs if i > 0][::-1], [x * y for x, y in zip(xs, xs[1:])]
''', [([1, -2, 3, 4],)]),
    ('''
def f():
    a = 1
    b = 2
    a, b = b, a + b
    (c, d), e = (a, b), 9
    return a, b, c, d, e
''', [()]),
    ('''
def f(x: Tensor):
    return x * 2
''', [()]) if False else ('''
def f():
    x = torch.ones(2, 2)
    y = x.clone()
    y[0, 0] = 5.0
    return x, y, x.sum() + y.sum()
''', [()]),
    ('''
def f():
    x = torch.tensor([[1, 2], [3, 4]])
    return x.tolist(), x[0].tolist(), x.flatten().tolist(), x.t().contiguous().view(-1)
''', [()]),
    ('''
def f():
    return torch.tensor([1, 2]).dtype, torch.tensor([1.0]).dtype
''', [()]),
    ('''
def f():
    return torch.float32
''', [()]),
    ('''
def f(s: str):
    return s.encode() if False else len(s)
''', [("ab",)]),
    ('''
def f(x: float):
    return "%.1f%%" % (x * 100)
''', [(0.256,)]),
    ('''
def f():
    l = [1, 2, 3]
    l[0], l[2] = l[2], l[0]
    return l
''', [()]),
    ('''
def f(n: int):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2:
            continue
        total += i
    return total
''', [(10,)]),
    ('''
def f(xs: List[float]):
    return [round(x, 1) for x in xs], [f"{x:.2f}" for x in xs]
''', [([1.234, 5.678],)]),
    ('''
def f(a: Optional[Tensor] = None):
    if a is None:
        return torch.zeros(1)
    return a
''', [()]),
]
