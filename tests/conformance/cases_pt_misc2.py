"""PyTorch's test_misc.py checkScript cases not ported before (legacy tensor classes,
math constants imported by name, torch.nn.common_types size aliases), as
CompilationUnit sources."""

import torch

torch.manual_seed(0)
CASES = [
('''
def test_all_dtypes():
    return (
        torch.BoolTensor([2]),
        torch.LongTensor([3]),
        torch.ByteTensor([4]),
        torch.CharTensor([5]),
        torch.DoubleTensor([6]),
        torch.FloatTensor([7]),
        torch.IntTensor([8]),
        torch.ShortTensor([1]),
        torch.HalfTensor([1]),
    )
''', [()]),
('''
from math import inf

def foo():
    return inf
''', [()]),
('''
def no_inputs():
    return torch.DoubleTensor()
''', [()]),
('''
def empty_overload():
    x = torch.LongTensor(2, 3, 4)
    x[:] = 1
    return x
''', [()]),
('''
from torch.nn.common_types import _size_2_t

def sum_i(x: _size_2_t) -> int:
    return x[0] + x[1]
''', [((4, 4),), ([3, 5],)]),
('''
def fn(x: Tuple[int, int]) -> None:
    a = x
''', [((1, 2),)]),
('''
def foo(x, dim: int):
    return x.unsqueeze(dim)
''', [(torch.randn(1), 0)]),
('''
def fn(x: Any) -> str:
    if isinstance(x, str):
        return x
    return "foo"
''', [(1,), ("bar",)]),
]
