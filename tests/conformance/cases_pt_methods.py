"""PyTorch's test_tensor_methods.py checkScript case (t.__getitem__(indices)) and special
methods called by name on builtin values, as CompilationUnit sources."""

import torch

torch.manual_seed(0)
CASES = [
('''
def tensor_getitem(inp: torch.Tensor):
    indices = torch.tensor([0, 2], dtype=torch.long)
    return inp.__getitem__(indices)
''', [(torch.rand(3, 4),)]),
('''
def f(xs: List[int], d: Dict[str, int], s: str):
    return xs.__getitem__(1), d.__getitem__("a"), s.__getitem__(0), xs.__len__(), xs.__contains__(2), d.__contains__("b")
''', [([1, 2, 3], {"a": 4}, "hey")]),
('''
def f(a: int, b: float, x: Tensor):
    return a.__add__(3), b.__mul__(2.0), x.__add__(1), x.__mul__(x), a.__neg__(), (-b).__abs__()
''', [(2, 1.5, torch.ones(2))]),
]
CASES += [
('''
def f(a: int, xs: List[int], t: Tuple[int, str]):
    r = 0
    for i in range(3):
        r = r.__add__(i).__mul__(2)
    return r, (3).__rsub__(10), a.__eq__(2), a.__lt__(5), xs.__getitem__(-1), t.__getitem__(1), \\
        "ab".__contains__("b"), a.__str__(), a.__invert__(), (2.5).__int__(), (1.5).__bool__()
''', [(2, [4, 5], (1, "x"))]),
]
