"""PyTorch's test_peephole.py and test_python_builtins.py cases that compare results
(writes through +=, `is` of bools, refinement of item(), short-circuits with constants,
length and integer refinements, powers of tensors and numbers, float("inf") and float of
strings), as CompilationUnit sources with the tests' inputs."""

import torch

A = torch.tensor([0.3]), torch.tensor([0.6]), torch.tensor([0.2]), torch.tensor([0.9])
P = [torch.tensor(2), torch.tensor(-2), torch.tensor(0.5), torch.tensor(0.2)]

CASES = [
('''
def test_write(x):
    s = 0
    s += x
    s += x
    return s
''', [(torch.ones(4, 4),)]),
('''
def test_write(x):
    t = torch.ones_like(x)
    z = x.clone()
    y = z + 0
    z.add_(t)
    return y + y
''', [(torch.ones(4, 4),)]),
('''
def test_peephole(x):
    y = x + 0
    return x, y
''', [(torch.ones(4, 4),)]),
('''
def is_int_tensor(x):
    scalar = x.item()
    if isinstance(scalar, int):
        return scalar + 3
    else:
        return 8
''', [(torch.tensor(2),), (torch.tensor(2.5),)]),
('''
def const_expressions(x):
    # type: (int) -> Tuple[bool, bool]
    return x == 1 and False, x == 1 or True
''', [(1,), (0,)]),
('''
def redundant_expressions(x):
    # type: (int) -> Tuple[bool, bool]
    return x == 1 and True, x == 1 or False
''', [(1,), (0,)]),
('''
def convertible_is_op(x: bool, y: bool):
    return x is True, False is x, x is y
''', [(True, False), (False, False)]),
('''
def convertible_isnot_op(x: bool, y: bool):
    return x is not True, False is not x, x is not y
''', [(True, False), (True, True)]),
('''
def foo(x: List[int], y: List[int]):
    if len(x) != 4 or len(y) != 5:
        raise Exception("")

    return len(x) + len(y)
''', [([0] * 4, [0] * 5), ([0] * 2, [0] * 5)]),
('''
def foo(x: List[int], y: List[int]):
    if len(x) == 4 and len(y) == 5:
        pass
    else:
        raise Exception("hi")

    return len(x) + len(y)
''', [([0] * 4, [0] * 5), ([0] * 4, [0] * 4)]),
('''
def foo(x: List[int], y: List[int], z: List[int]):
    if len(x) != 4:
        raise Exception("..")
    else:
        if len(y) != 8:
            raise Exception("...")
        else:
            if len(z) == 3:
                pass
            else:
                raise Exception("...")

    return len(x) + len(y) * len(z)
''', [([0] * 4, [0] * 8, [0] * 3), ([0], [0] * 2, [0] * 3), ([0] * 4, [0] * 8, [])]),
('''
def foo(x: List[int], cond: bool):
    if len(x) == 4:
        if cond:
            return len(x)
        return 4

    return 4
''', [([1, 2, 3, 4], True), ([1, 2], True), ([1, 2, 3, 4], False)]),
('''
def foo(x: List[int], b: List[int]):
    if len(x) == 5:
        x1 = True
    else:
        x1 = len(b) != 4
    assert x1 == False
    return len(x), len(b)
''', [([0] * 3, [0] * 4), ([0] * 5, [0] * 4), ([0] * 3, [0] * 3)]),
('''
def foo(x: List[int], b: List[int]):
    if len(x) == 5:
        x1 = False
    else:
        x1 = len(b) != 4
    assert x1 == False
    return len(x), len(b)
''', [([0] * 5, [0] * 2), ([0] * 3, [0] * 4), ([0] * 3, [0] * 3)]),
('''
def foo(x: List[int], b: List[int]):
    if len(x) == 5:
        x1 = True
    else:
        x1 = len(b) == 4
    assert x1 == False
    return len(x), len(b)
''', [([0] * 3, [0] * 2), ([0] * 3, [0] * 4)]),
('''
def foo(x: List[int], b: List[int]):
    if len(x) != 5:
        x1 = len(b) != 4
    else:
        x1 = True
    assert x1 == False
    return len(x), len(b)
''', [([0] * 3, [0] * 4), ([0] * 5, [0] * 4)]),
('''
def foo(x: List[int], b: List[int]):
    if len(x) != 5:
        x1 = len(b) != 4
    else:
        x1 = True
    assert not x1
    return len(x), len(b)
''', [([0] * 3, [0] * 4), ([0] * 3, [0] * 1)]),
('''
def foo(x: List[int]):
    assert len(x) == 4
    x.append(3)
    return len(x)
''', [([1, 2, 3, 4],), ([1],)]),
('''
def foo(x: List[int], y: List[int]):
    assert len(x) == 4 or len(y) == 5
    return len(x) + len(y)
''', [([1, 2, 3, 4], []), ([], [1, 2, 3, 4, 5]), ([], [])]),
('''
def foo(x: int, y: int):
    if x != 4 or y != 5:
        raise Exception("")

    return x + y
''', [(4, 5), (2, 4)]),
('''
def foo(x: int, y: int):
    if x == 4 and y == 5:
        pass
    else:
        raise Exception("hi")

    return x + y
''', [(4, 5), (2, 4)]),
('''
def foo(x: int, y: int, z: int):
    if x != 4:
        raise Exception("..")
    else:
        if y != 8:
            raise Exception("...")
        else:
            if z == 3:
                pass
            else:
                raise Exception("...")

    return x + y * z
''', [(4, 8, 3), (1, 2, 3), (4, 8, 2)]),
('''
def foo(x: int, cond: bool):
    if x == 4:
        if cond:
            return x
        return 4

    return 4
''', [(4, True), (3, False)]),
('''
def foo(x: int, y: int):
    assert x == 4 or y == 5
    return x + y
''', [(4, 1), (1, 5), (1, 1)]),
('''
def foo(x: int):
    return x == x, x != x
''', [(1,)]),
('''
def foo2(x: List[int]):
    return x == x, x != x
''', [([2, 3],)]),
('''
def foo(x: int):
    y = 1
    if x == 1:
        return y
    else:
        return x
''', [(2,), (1,)]),
('''
def foo(x):
    return len(x.size())
''', [(torch.rand([3, 1]),)]),
('''
def foo(x: int):
    return int(x)
''', [(3,)]),
('''
def func(a, b):
    c = a + b
    c += a
    return c
''', [A[:2]]),
('''
def func(a, b):
    return a * b
''', [A[:2]]),
('''
def fn(a, b):
    return a @ b
''', [(torch.rand(4, 3), torch.rand(3, 2))]),
('''
def func(a, b):
    return a**b
''', [A[:2]]),
('''
def func2(a, b, c, d):
    return c + a**b**d
''', [A]),
('''
def func3(a, b):
    # type: (int, float) -> float
    return a**b
''', [(4, -0.5)]),
('''
def func4():
    # type: () -> float
    return 2**-2
''', [()]),
('''
def func5(x, y):
    return x.item() ** y.item()
''', [(x, y) for x in P for y in P
     if not x < 0 and not (x.dtype == y.dtype == torch.int64 and y < 0)]),
('''
def func(x):
    return 3.0 * x
''', [(torch.rand(1),)]),
('''
def func(x):
    return x[:8:2]
''', [(torch.rand(10),)]),
('''
def func(x):
    return x[1::4]
''', [(torch.rand(10),)]),
('''
def foo(a):
    return a < float("inf")
''', [(torch.rand(1),)]),
('''
def bar(a):
    return a > float("-inf")
''', [(torch.rand(1),)]),
('''
def foo(x):
    # type: (bool)
    a = float("-inf")
    if not x:
        a = float(torch.tensor([5]))
    return a < 4
''', [(True,), (False,)]),
('''
def foo(a):
    return 0.5 == float("0.5 hello")
''', [(torch.rand(1),)]),
('''
def foo(a):
    return 0.5 == float("0.5")
''', [(torch.rand(1),)]),
('''
def foo(a):
    return 0.0 == float("0")
''', [(torch.rand(1),)]),
]
