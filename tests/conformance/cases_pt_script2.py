"""TorchScript checkScript-style cases written for ember (pt script2); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
T = lambda v: torch.tensor(v)
CASES = [
('''
def arg_true(x):
    # type: (Tensor) -> Tuple[Tensor, Tensor]
    return F.max_pool1d(x, 1, 1, 0, 1, False, True)
''', [(torch.randn(3, 3, 3),)]),
('''
def fn(x):
    # type: (str)
    return x[2], x[-1]
''', [("abcde",)]),
('''
def fn(x):
    # type: (int) -> str
    return chr(x)
''', [(1,), (97,)]),
('''
def round_int(x):
    # type: (int) -> float
    return round(x)
''', [(2,)]),
('''
def fn1(x):
    # type: (str) -> str
    return x[1:3] + x[-1:3] + "|" + x[3:1] + x[3:100]
''', [("abcdefghi",)]),
('''
def fn():
    x = torch.ones(2, 3)
    x_1 = x.view(-1)
    l = []
    l.append(x_1)
    x_view = l[0]
    x.add_(torch.ones(2, 3))
    return x_view
''', [()]),
('''
def fn():
    indexes = torch.jit.annotate(List[Tensor], [])
    word_ids = torch.zeros(10, dtype=torch.int32)
    word_ids[1] = 1
    indexes.append(word_ids)
    return word_ids
''', [()]),
('''
def no_guard_ifs_added(x):
    # type: (int) -> int
    if x == 1:
        return 1
    else:
        if x == 2:
            raise RuntimeError("hi")
        else:
            raise RuntimeError("hi")
''', [(1,), (2,)]),
('''
def test_if_might(x):
    # type: (int)
    if x > 0:
        if x == 1:
            return 1
        else:
            a = 2
    else:
        raise RuntimeError("hi")
    return a + 2
''', [(1,), (3,), (-1,)]),
('''
def test_loop_no_escape(x):
    # type: (int)
    if x >= 0:
        for i in range(x):
            raise RuntimeError("hi")
    else:
        return 5
    return x + 3
''', [(0,), (-1,), (1,)]),
('''
def test_loop_exception_with_continue(x):
    # type: (int)
    i = 0
    for i in range(5):
        if i == x:
            raise RuntimeError("hi")
        else:
            continue
        print(i)
    return i + 5
''', [(-1,), (1,)]),
('''
def test_exit_pair_reset(x):
    # type: (int) -> int
    if x > 0:
        a = 0
        def backward(grad_output):
            raise RuntimeError("Hi")
        a = a + 1
    else:
        return x
    return a + 1
''', [(1,), (-1,)]),
('''
def simple(x):
    if bool(x > 3):
        return x + 1
    else:
        return x + 2
    raise RuntimeError("nope")
''', [(T(2.5),), (T(4.5),)]),
('''
def not_early_ret(x):
    s = ""
    if bool(x > 3):
        if bool(x > 4):
            return 1, s
        s += "foo"
    else:
        s += "5"
    s += "hi"
    return 7, s
''', [(T(2.5),), (T(3.5),), (T(4.5),)]),
('''
def vars_used_after_ret(x):
    # type: (int) -> int
    if x == 0:
        return x
    else:
        y = 2
        z = 3
    return x + y * z
''', [(1,), (0,)]),
('''
def complicated(x):
    # type: (int) -> int
    if x:
        if x == 2:
            return 1
            assert 1 == 2
        else:
            if x == 3:
                return 2
                assert 1 == 2
            else:
                a = 2
                b = 3
    else:
        a = 4
        b = 1
    return a + b
    assert 1 == 2
''', [(0,), (1,), (2,), (3,)]),
('''
def none_ret():
    pass
''', [()]),
('''
def nest_while_ret(x):
    # type: (int) -> int
    y = 4
    while x < 4:
        if x < 3:
            return y
        else:
            y = y + 1
            break
        y = y + 2
    y = y + 1
    return y
''', [(2,), (3,), (4,)]),
('''
def loop_ret(x, y):
    # type: (int, int) -> (int)
    i = 0
    for i in range(x):
        if x == y:
            return x + y
        i = i + y
    i = i - 1
    return i
''', [(3, 3), (2, 3), (3, 1)]),
('''
def test_loop_nest_ret(y):
    # type: (int) -> int
    for i in range(y):
        for i in range(y - 2):
            return 10
        return 5
    return 0
''', [(0,), (1,), (2,), (3,)]),
('''
def test(a, b):
    # type: (Tensor, float)
    return torch.nn.init.constant_(a, b)
''', [(torch.ones(2, 2), 2.5)]),
('''
def test(a):
    # type: (Tensor)
    return torch.nn.init.ones_(a), torch.nn.init.zeros_(a)
''', [(torch.ones(2, 2),)]),
('''
def test_multiple(x: int):
    if x == 5:
        return x * x
    else:
        y = 2 * x
    z = y * 2
    if z == 8:
        return 1
    if z != 16:
        z = z - 2
        abc = 4
    else:
        return 3
    z = z * abc
    return z * z * z
''', [(5,), (2,), (4,), (3,), (10,)]),
('''
def foo():
    if torch.jit.is_scripting():
        return 1
    else:
        print("hello") + 2
''', [()]),
('''
def foo():
    if True:
        return 1
    else:
        return "2"
''', [()]),
('''
def foo(a):
    # type: (Optional[List[int]]) -> int
    b = 0
    if isinstance(a, (int, (float,), list, str)):
        b += 1
    if isinstance(a, (int, str)):
        b += 1
    if isinstance(a, List[int]):
        b += 1
    return b
''', [([3, 4],), (None,)]),
('''
class Point(NamedTuple):
    x: Optional[int] = None
    y: int = 2

def fn(p: Point):
    return p
''', [()]) if False else ('''
class Point(NamedTuple):
    x: Optional[int] = None
    y: int = 2

def fn(a: int):
    return Point(), Point(x=a), Point(a, 5)
''', [(3,)]),
('''
class Point(NamedTuple):
    x: Optional[List[int]] = None
    y: List[int] = [1, 2, 3]
    z: Optional[Dict[str, int]] = {"a": 1}

def fn(a: int):
    return Point(), Point(x=[a])
''', [(3,)]),
('''
def my_conv(x: float, y: float = 2.0) -> float:
    return 2.0 + x

def test_uses():
    return my_conv(1.5), my_conv(1.5, 5.0)
''', [()]),
]

# left out: what differs by design or is not implemented (the reason for each)
_LEFT_OUT = {
    3: 'round(int) annotated float: CPython returns an int',
    23: 'torch.jit.is_scripting() is True in ember, so the else branch is not compiled',
    25: 'CPython rejects isinstance with a subscripted generic',
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]
