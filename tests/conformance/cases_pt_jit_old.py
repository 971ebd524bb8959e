"""TorchScript checkScript-style cases written for ember (pt jit old); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
T = lambda *v: [torch.tensor(x) for x in v]
CASES = [
('''
def no_return(a):
    a + 1
''', [(torch.ones(1),)]),
('''
def void_return(a):
    return
''', [(torch.ones(1),)]),
('''
def multiple_returns(a):
    return a * 1., a * 2., a * 3.
''', [(torch.ones(1),)]),
('''
def func(x, y):
    q = (x + y).sigmoid()
    print(q, 1, 2, [1, 2], [1.0, 2.0])
    w = -q
    return w * w
''', [(torch.arange(4.), torch.arange(0., 8, 2))]),
('''
def func(x):
    print("{}, I'm a {}".format("Hello", "test"))
    print("format blank".format())
    print("stuff before {}".format("hi"))
    print("{} stuff after".format("hi"))
    return x + 1
''', [(torch.arange(4.),)]),
('''
def func(a):
    print(a, "a" 'b' \'\'\'c\'\'\' """d""", 2, 1.5)
    return a
''', [(torch.tensor(1),)]),
('''
def func(a, b, max):
    while bool(a < max):
        a = a + 1
        b = b + 1
    c = a + b
    return c
''', [tuple(T(1, 1, 10))]),
('''
def func(lim):
    first = 1
    second = 1
    i = 1
    somenum = 5
    third = 0
    while bool(i < lim):
        third = first + second
        first = second
        second = third
        j = 0
        while j < 10:
            somenum = somenum * 2
            j = j + 1
        i = i + j
    return third, second + third
''', [tuple(T(10))]),
('''
def func(a, b):
    # type: (int, int) -> int
    d = 3
    if bool(a > 10):
        a = 3 + d
    else:
        b = 3 + d
        d = 4
    c = a + b
    return c
''', [(1, -1)]),
('''
def func(a, b):
    if bool(a > 10):
        a = 3 + b
    c = a + b
    return c
''', [tuple(T(-1, 1))]),
('''
def func(a, b):
    c = 3
    c = a + b if bool(a > 3) else b
    return c
''', [tuple(T(5, 2)), tuple(T(1, 0))]),
('''
def func(a):
    return a.view(size=[1, 2, 3])
''', [(torch.arange(6.),)]),
('''
def f(x):
    return torch.clamp(x, min=2, max=None), torch.clamp(x, min=None, max=2)
''', [(torch.arange(0, 3),)]),
('''
def f():
    t1 = torch.ones([1, 1])
    t2 = torch.ones([1, 1])
    x = [t1, t2]
    y = [t2, t1]
    return x == y
''', [()]),
('''
def f():
    t1 = torch.ones([2, 2])
    x = [t1, t1 + 1]
    y = [t1 + 1, t1]
    return x == y
''', [()]),
('''
def f():
    a = [0, 1, 2, 3, 4]
    return a[3:2] == torch.jit.annotate(List[int], []), a[-3:-1], a[3:10], a[:-1]
''', [()]),
('''
def cast(v):
    # type: (float) -> bool
    return bool(v)
''', [(1.0,), (0.0,)]),
('''
def cast(v):
    # type: (bool) -> float
    return float(v)
''', [(True,)]),
('''
def cast(v):
    # type: (float) -> int
    return int(v)
''', [(1.,)]),
('''
def f(x):
    return len(x)
''', [(torch.ones(4, 5, 6),)]),
('''
def f(t):
    c1 = 1
    if (False and bool(t[1])) or (True or bool(t[1])):
        c1 = 0
    return c1
''', [(torch.randn(0),)]),
('''
def f(t):
    c0 = False or bool(t[1])
    print(c0)
''', [(torch.randn(0),)]),
('''
def f(x, slope):
    a = torch.abs(x)
    b = torch.nn.functional.prelu(x, slope)
    c = F.prelu(x, slope)
    return a, b, c
''', [(torch.arange(-3., 4), torch.tensor([0.5]))]),
('''
def none_stmt(x):
    output = None
    output = x
    return output
''', [(torch.arange(0, 2),)]),
('''
def none_args(x):
    # type: (Optional[Tensor]) -> Optional[Tensor]
    return None
''', [(None,)]),
('''
def f(x=None):
    # type: (Optional[Tensor]) -> Tensor
    res = torch.zeros(1, dtype=torch.int8)
    if x is None:
        res = res + 1
    else:
        res = torch.jit._unwrap_optional(x)
    return res
''', [(), (torch.zeros(1),)]),
('''
def f(x=None):
    # type: (Optional[float]) -> float
    res = 2.0
    if x is None:
        res = res + 1.0
    else:
        res = torch.jit._unwrap_optional(x)
    return res
''', [(), (1.0,)]),
('''
def f(x, y):
    # type: (bool, bool) -> Tuple[bool, bool, bool]
    return x & y, x ^ y, x | y
''', [(True, False)]),
('''
def f(x, y):
    return x & y, x ^ y, x | y
''', [(torch.tensor(2), torch.tensor(3))]),
('''
def f():
    return 2 & 3, 2 ^ 3, 2 | 3
''', [()]),
('''
def f(x):
    # type: (Optional[int]) -> int
    if x is not None and x < 2:
        x = x + 1
    else:
        x = 5
    return x + 2
''', [(1,), (None,), (4,)]),
('''
def f(x, y):
    # type: (Optional[int], Optional[int]) -> int
    if y is None or x is None:
        return 0
    else:
        return x + y
''', [(1, 2), (None, 2)]),
('''
def f(x, y):
    # type: (Optional[int], Optional[int]) -> int
    if not (x is not None and y is not None):
        return 0
    else:
        return x + y
''', [(1, 2), (None, 2)]),
('''
def f(a):
    B = a.size(0)
    C = a.size(1)
    return a.view(C, B)
''', [(torch.ones(2, 3),)]),
('''
def f(a):
    return a / a
''', [(torch.ones(2, 2, dtype=torch.long),)]),
('''
def f(this, meme):
    i = 0
    while i < 3:
        this = torch.cat([this, meme], dim=0)
        i = i + 1
    return this
''', [(torch.ones(0, 2), torch.ones(1, 2))]),
('''
def f(x, y):
    return torch.cat((x, x), y)
''', [(torch.ones(2, 2), torch.tensor(1))]),
('''
def f(x):
    return x.sum(dim=[1]), x.sum(dim=1), x.sum([0, 1])
''', [(torch.ones(2, 3),)]),
('''
def f(x):
    return x[1], x[-1], x[0:1], x[:, 0]
''', [(torch.arange(6).view(3, 2),)]),
('''
def f(a):
    return a[1:-1, 0:2:1] if a.dim() == 2 else a
''', [(torch.arange(12).view(4, 3),)]),
]
