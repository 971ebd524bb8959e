"""PyTorch's test_misc.py cases not ported before (torch.ops.aten._unsafe_index_put and
torch.index_put compared with Python's, a float default exponent), as CompilationUnit
sources with inputs from a fixed seed."""

import torch

torch.manual_seed(0)
X, I, V = torch.randn(10), torch.randint(10, (20,)), torch.randn(20)

CASES = [
('''
def index_put_fn(input, index, value):
    return torch.ops.aten._unsafe_index_put(
        input, [index], value, accumulate=False
    )
''', [(X, I, V)]),
('''
def fn(input, index, value):
    return torch.index_put(input, [index], value, accumulate=False)
''', [(X, I, V)]),
('''
def fn(input, index, value):
    torch.index_put_(input, [index], value, accumulate=True)
    return input
''', [(X, I, V)]),
('''
def fn(p: torch.Tensor, gamma: float = 2.0) -> torch.Tensor:
    p = torch.sigmoid(p)
    result = p**gamma
    return result
''', [(torch.rand((2, 2)),), (torch.rand((2, 2)), 0.5)]),
]
CASES += [
('''
def fn(x, i, j, v):
    return x.index_put([i, j], v), x.index_put([i, j], v, True)
''', [(torch.zeros(3, 4), torch.tensor([0, 2, 0]), torch.tensor([1, 3, 1]),
       torch.tensor([1.0, 2.0, 3.0]))]),
('''
def fn(x, m):
    y = x.clone()
    y.index_put_([m], torch.tensor(-1.0))
    return y, x
''', [(torch.arange(6.0).reshape(2, 3), torch.tensor([[True, False, True], [False, False, True]]))]),
('''
def fn(x, i):
    return x.index_put([i], torch.ones(2, dtype=torch.float64))
''', [(torch.zeros(3), torch.tensor([0, 1]))]),
]
