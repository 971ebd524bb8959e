"""PyTorch's test_jit.py TestScript checkScript cases from its first part (annotate forms,
tensor properties, string ops, arithmetic on 1-element tensors, ...), not ported before,
as CompilationUnit sources with the tests' inputs."""

import torch

torch.manual_seed(0)
R1 = torch.rand(1)

CASES = [
    ('''
def fn2(input, kernel_size):
    # type: (Tensor, List[int]) -> Tensor
    if kernel_size[0] > 1:
        _stride = [2]
    else:
        _stride = kernel_size
    print(_stride, kernel_size)
    return input

def fn(input):
    # type: (Tensor) -> Tensor
    return fn2(input, [1])
''', [(torch.ones(2),)]),
    ('''
def foo():
    return math.pi, 0.1, float("inf"), float("-inf"), 2.225073858507201e-308, float("nan")
''', [()]),
    ('''
def foo(a):
    return torch.jit.annotate(torch.Tensor, a)
''', [(torch.rand(3),)]),
    ('''
def bar():
    a = torch.jit.annotate(List[int], [])
    for _ in range(10):
        a.append(4)
    return a
''', [()]),
    ('''
def baz(a):
    return torch.jit.annotate(float, a)
''', [(torch.rand(()),)]),
    ('''
def annotate_none():
    return torch.jit.annotate(Optional[torch.Tensor], None)
''', [()]),
    ('''
def annotate_none_no_optional():
    return torch.jit.annotate(torch.Tensor, None)
''', [()]),
    ('''
def stuff(x):
    neg = torch.add
    return neg(x, x)
''', [(torch.rand(3),)]),
    ('''
def foo():
    return [[4]] + [[4, 5]]
''', [()]),
    ('''
def f(x):
    return x.shape
''', [(torch.empty(34, 56, 78),)]),
    ('''
def f(x):
    return x.requires_grad
''', [(torch.tensor(1.0),)]),
    ('''
def byte(x):
    return x.dtype == torch.uint8, x.dtype == torch.long, x.dtype == torch.float32
''', [(torch.empty(3, 4, dtype=torch.uint8),), (torch.empty(3, dtype=torch.long),),
      (torch.empty(2, dtype=torch.float32),)]),
    ('''
def to_cpu(x):
    return x.cpu()
''', [(torch.ones(3, 4),)]),
    ('''
def same_device(x, y):
    return x.device == y.device
''', [(torch.ones(1), torch.zeros(2))]),
    ('''
def foo(a):
    b = a
    return b
''', [(torch.rand(1),)]),
    ('''
def foo(a):
    print(a, """a\\\\n\\tb\\\\n""", 2, "a\\
a")
    return a
''', [(torch.rand(1),)]),
    ('''
def foo():
    a = "a" + "b"
    return a + a, "ab" == "b", "ab" != "b", "ab" == "ab", "ab" != "ab"
''', [()]),
    ('''
def foo(a):
    return a + a + a
''', [(torch.rand(2),)]),
    ('''
def foo(a):
    return a < float('inf'), a > float('-inf')
''', [(torch.rand(1),)]),
    ('''
def func(a, b):
    c = a + b
    c += a
    return c
''', [(R1, R1 + 1)]),
    ('''
def func(a, b):
    return a * b
''', [(R1, R1 + 1)]),
    ('''
def fn(a, b):
    return a @ b
''', [(torch.rand(4, 3), torch.rand(3, 2))]),
    ('''
def func(x):
    return 3. * x
''', [(torch.rand(1),)]),
    ('''
def func(x):
    return x[:5]
''', [(torch.rand(10),)]),
    ('''
def func2(x):
    return x[5:]
''', [(torch.rand(10),)]),
    ('''
def func(x):
    return x[0]
''', [(torch.rand(10),)]),
    ('''
def f(mean, std):
    return torch.normal(mean, std).shape
''', [(torch.zeros(5, 5), torch.ones(5, 5))]),
]
CASES += [
    ('''
def f(mean, std: float):
    return torch.normal(mean, std).shape, torch.normal(0.0, 1.0, [2, 3]).shape, \\
        torch.normal(2.0, mean.abs()).dtype == mean.dtype
''', [(torch.zeros(4, dtype=torch.float64), 2.0)]),
    ('''
def f(x: float):
    g = math.sqrt
    h = abs
    return g(x), h(-x)
''', [(4.0,)]),
]

# left out: what differs by design or is not implemented (the reason for each)
_LEFT_OUT = {
    4: "torch.jit.annotate(float, t) of a tensor: TorchScript converts (a float), CPython's "
       "annotate returns the tensor",
    6: "torch.jit.annotate(torch.Tensor, None): None is not a Tensor in ember",
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]
CASES += [
    ('''
def reassign_from_empty_literal():
    x = []
    if True:
        x = [1, 2, 3]
    return x
''', [()]),
    ('''
def reassign_from_empty_builtin():
    x = torch.jit.annotate(List[int], [])
    if True:
        x = [1, 2, 3]
    y = torch.jit.annotate(List[float], [])
    if True:
        y = [1.0, 2.0, 3.0]
    z = []
    if True:
        z = [torch.ones([1])]
    return x, y, z
''', [()]),
]
