"""More of PyTorch's test_jit.py (TestScript) checkScript cases not ported before:
function calls, while/if over scalar tensors, Optional refinement forms, printing string
literals, as CompilationUnit sources with the tests' inputs."""

import torch

torch.manual_seed(0)


def _scalars(arr, dtype=torch.int64):
    return tuple(torch.tensor(v, dtype=dtype) for v in arr)


CASES = [
    ('''
def add(a, b):
    return a + b

def mul(a, x):
    return a * x

def func(alpha, beta, x, y):
    return add(mul(alpha, x), mul(beta, y))
''', [(torch.rand(1), torch.rand(1), torch.rand(3), torch.rand(3))]),
    ('''
def test_view_shape_prop(a):
    return a.view(size=[-1])
''', [(torch.zeros(10, 10),)]),
    ('''
def fn(x):
    B = x.size(0)
    C = x.size(1)
    T = x.size(2)
    return x.view(T, B, C)
''', [(torch.randn(3, 1, 5),)]),
    ('''
def func(a):
    print(a, "a" 'b' \'\'\'c\'\'\' """d""", 2, 1.5)
    return a
''', [_scalars([1])]),
    ('''
def func(a, b, max):
    while bool(a < max):
        a = a + 1
        b = b + 1
    c = a + b
    return c
''', [_scalars([1, 1, 10])]),
    ('''
def func(lim):
    first = 1
    second = 1
    i = 1
    somenum = 5
    dontmutateme = 3
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
        i = i + dontmutateme
    st = second + third
    fs = first + second
    return third, st, fs
''', [_scalars([10]), _scalars([2])]),
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
''', [(1, -1), (11, 2)]),
    ('''
def func(a, b):
    # type: (int, int) -> int
    d = 3
    for _ in range(20):
        if bool(a > 10):
            a = 3 + d
        else:
            b = 3 + d
            d = 4
        c = a + b
    return d
''', [(1, -1), (11, 2)]),
    ('''
def func(a, b):
    if bool(a > 10):
        a = 3 + b
    c = a + b
    return c
''', [_scalars([-1, 1]), _scalars([11, 1])]),
    ('''
def test_ternary(x):
    # type: (Optional[int]) -> int
    x = x if x is not None else 2
    return x
''', [(None,), (5,)]),
    ('''
def test_not_none(x):
    # type: (Optional[int]) -> None
    if x is not None:
        print(x + 1)
''', [(None,), (5,)]),
    ('''
def test_and(x, y):
    # type: (Optional[int], Optional[int]) -> None
    if x is not None and y is not None:
        print(x + y)
''', [(None, 1), (2, 3)]),
    ('''
def test_bool_expression(x):
    # type: (Optional[int]) -> None
    if x is not None and x < 2:
        print(x + 1)
''', [(None,), (1,), (5,)]),
    ('''
def test_nested_bool_expression(x, y):
    # type: (Optional[int], Optional[int]) -> int
    if x is not None and x < 2 and y is not None:
        x = x + y
    else:
        x = 5
    return x + 2
''', [(None, 1), (1, 3), (1, None), (4, 4)]),
    ('''
def test_or(x, y):
    # type: (Optional[int], Optional[int]) -> None
    if y is None or x is None:
        pass
    else:
        print(x + y)
''', [(None, 1), (2, 3)]),
    ('''
def test_manual_unwrap_opt(x):
    # type: (Optional[int]) -> int
    if x is None:
        x = 1
    else:
        x = torch.jit._unwrap_optional(x)
    return x
''', [(None,), (7,)]),
    ('''
def func(a, b):
    while bool(a < 10):
        a = a + 1
        b = a + 1
    return a + b
''', [_scalars([42, 1337]), _scalars([1, 2])]),
    ('''
def func(a, b):
    # type: (int, int) -> int
    c = 0
    while a < 10:
        a = a + 1
        b = b + 1
        if a > b:
            c = -a
        else:
            c = -b
    return c + 1
''', [(-1234, 4321), (5, 3)]),
    ('''
def test_floor():
    return math.floor(1.5)
''', [()]),
]

CASES += [
    ('''
def func(a, b):
    # type: (int, int) -> int
    c = 0
    if a > b:
        while a > b:
            b = b + 1
            c = -b
    return c
''', [(4321, 1234), (1, 2)]),
    ('''
def fn():
    c = 0
    for i in range(100):
        acc = 0
        for j in range(i):
            acc += j
        c += acc
    return c
''', [()]),
    ('''
def test_script_for_in_range_if_ast(x):
    output = x
    for i in range(20):
        if i == 0:
            output = x.unsqueeze(0)
        else:
            output = torch.cat((output, x.unsqueeze(0)), dim=0)
    return output
''', [_scalars([0])]),
    ('''
def test_script_optional_tensor_none(x=None):
    # type: (Optional[Tensor]) -> Tensor
    res = torch.zeros(1, dtype=torch.int8)
    if x is None:
        res = res + 1
    else:
        res = torch.jit._unwrap_optional(x)
    return res
''', [(), (torch.zeros(1),)]),
    ('''
def func():
    li = torch.jit.annotate(List[int], [])
    return torch.tensor([li, li])
''', [()]),
    ('''
def func():
    li = torch.jit.annotate(List[int], [])
    return torch.tensor([[[li]]])
''', [()]),
]
# test_torch_tensor: every list under every dtype option
for _li in ["2.5", "4", "True", "False", "[2]", "[-.5]", "[False, True, False]", "[2, 2]",
            "[2.5, 2.5]", "[[2], [2]]", "[[-.5], [2.2]]", "[[False], [True]]"]:
    for _dt in ["", ", dtype=torch.float", ", dtype=torch.double", ", dtype=torch.half",
                ", dtype=torch.uint8", ", dtype=torch.int8", ", dtype=torch.short",
                ", dtype=torch.int", ", dtype=torch.long"]:
        for _dev in ["", ", device='cpu'"]:
            CASES.append((f'''
def func():
    li = {_li}
    return torch.tensor(li {_dt}{_dev})
''', [()]))
CASES += [
    ('''
def foo():
    return torch.tensor([[2, 2], [1]])
''', [()]),
    ('''
def foo(x: List[List[List[float]]]):
    return torch.tensor(x)
''', [([[[1.0, 2.0], [3.0]]],), ([[[1.0], [3.0]]],)]),
    ('''
def foo(x: List[int], y: List[float]):
    return torch.tensor(x, dtype=torch.uint8), torch.tensor(y, dtype=torch.int16), \\
        torch.tensor(x, dtype=torch.int8)
''', [([-1, 255], [1.5, -2.5]), ([-1, 256], [1.0]), ([1, 2], [70000.0]), ([-128, 2], [float("nan")]),
      ([-129], [0.0])]),
]

# left out: what differs by design or is not implemented (the reason for each)
_LEFT_OUT = {
    23: "torch.tensor of an empty List[int] is int64 (its static type, as TorchScript); "
        "CPython's torch makes float32 from the empty data",
    24: "the same, nested",
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]
