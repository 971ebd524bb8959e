"""TorchScript checkScript-style cases written for ember (pt tensor more); the
constructs follow PyTorch's JIT tests, the programs and inputs are ember's own."""

import torch
CASES = [
('''
def f(x: Tensor, y: Tensor):
    return torch.trace(x), y.trace(), torch.rot90(x), torch.rot90(x, 2, [1, 0]), x.rot90(-1, [0, 1])
''', [(torch.arange(9).view(3, 3), torch.rand(2, 3))]),
('''
def f(a: Tensor, b: Tensor):
    return torch.cross(a, b), torch.cross(a, b, dim=1), a.cross(b, 0)
''', [(torch.rand(3, 3), torch.rand(3, 3))]),
('''
def f(n: int):
    return torch.logspace(0, 2, n), torch.logspace(-1, 1, n, base=2.0, dtype=torch.float64), torch.scalar_tensor(n), torch.scalar_tensor(n, dtype=torch.int64)
''', [(5,), (1,)]),
('''
def f(x: Tensor):
    y = x.t()
    return x.stride(0), y.stride(-1), y.stride(0), x.expand(2, 3, 4).stride(0)
''', [(torch.rand(3, 4),)]),
('''
def f(x: Tensor):
    return x.unfold(0, 2, 1), x.unfold(1, 2, 2), x.unfold(-1, 3, 1).shape
''', [(torch.arange(12.).view(3, 4),)]),
('''
def f(x: Tensor):
    return x.unfold(0, 5, 1)
''', [(torch.arange(4.),)]),
('''
def f(x: Tensor, i: Tensor, s: Tensor):
    x.index_add_(0, i, s)
    x.index_add_(1, torch.tensor([0, 0]), torch.ones(3, 2), alpha=2)
    return x
''', [(torch.zeros(3, 4), torch.tensor([0, 2, 0]), torch.ones(3, 4))]),
('''
def f(x: Tensor):
    return torch.trace(x)
''', [(torch.rand(3),)]),
]
