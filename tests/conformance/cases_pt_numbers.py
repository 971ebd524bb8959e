"""Number constants under every binary operator and min/max (the shape of PyTorch's
test_number_math template), plus any()/all() of non-bool lists and a complex .item()."""

import torch

_SCALARS = ["7", "-3", "3.14", "-0.5", "2.0", "2"]
_OPS = ["+", "-", "*", "%", "<", "<=", ">", ">=", "==", "!=", "//", "/"]

CASES = [(f"\ndef func():\n    return {a} {op} {b}\n", [()])
         for a in _SCALARS for b in _SCALARS for op in _OPS]
CASES += [(f"\ndef func():\n    return {fn}({a}, {b})\n", [()])
          for a in _SCALARS for b in _SCALARS for fn in ("min", "max")]
CASES += [
    ('''
def func(a: List[int], b: List[str], c: List[float], d: List[List[int]]) -> List[bool]:
    return [any(a), all(a), any(b), all(b), any(c), all(c), any(d), all(d)]
''', [([1, 2, 1, 0], ["", "a"], [0.0], [[]]), ([], [], [], []), ([3], ["x"], [1.5], [[1]])]),
    ('''
def func(x: Tensor) -> complex:
    return x[1].item()
''', [(torch.tensor([1 + 2j, 3j]),)]),
]
