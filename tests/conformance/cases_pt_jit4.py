"""More of PyTorch's test_jit.py (TestScript) checkScript cases not ported before: Tensor.to
forms, `is`/`is not` of literals, isinstance of each type, docstrings inside a body, as
CompilationUnit sources."""

import itertools

import torch

torch.manual_seed(0)

CASES = [
    ('''
def test_not_op(a):
    return not bool(a > 1)
''', [(torch.tensor(2),), (torch.tensor(0),)]),
    ('''
def with_docstring(x):
    """test str"""
    y = x
    """y is the same as x"""
    return y
''', [(torch.ones(2),)]),
]

# test_tensor_to: the conversions (values and dtypes; identity is not observable here)
_TO = ["t.to(t, non_blocking=non_blocking)", "t.to(t.dtype, non_blocking=non_blocking)",
       "t.to(torch.empty_like(t), non_blocking=non_blocking)",
       "t.to(t, non_blocking=non_blocking, copy=True)",
       "t.to(t.dtype, non_blocking=non_blocking, copy=True)",
       "t.to(torch.empty_like(t), non_blocking=non_blocking, copy=True)",
       "t.to(device, non_blocking=non_blocking)",
       "t.to(device, t.dtype, non_blocking=non_blocking)",
       "t.to(device, non_blocking=non_blocking, copy=True)",
       "t.to(device, t.dtype, non_blocking=non_blocking, copy=True)",
       "t.to('cpu')", "t.to('cpu', dtype=torch.float32)", "t.to(torch.float32)",
       "t.to(dtype=torch.float32)", "t.to(dtype=t.dtype, device=t.device, copy=False)",
       "t.to('cpu', copy=False)", "t.to('cpu', copy=True)"]
for _to in _TO:
    CASES.append((f'''
def func(t):
    cuda = "cuda"
    device = "cpu"
    non_blocking = False
    return {_to}
''', [(torch.tensor(5),), (torch.tensor([1.5, 2.0]),)]))

# test_is_isnot: every pair of literals under `is` and `is not`
for _op, _lhs, _rhs in itertools.product(["is", "is not"], ["True", "False", "None", "[1, 1]"],
                                         ["True", "False", "None", "[1, 1]"]):
    CASES.append((f'''
def func():
    # type: () -> bool
    return {_lhs} {_op} {_rhs}
''', [()]))

# test_isinstance: each input with its type literal and annotation
for _inp, _typ, _hint in zip([True, 1, 1.0, torch.tensor(1), [1, 2], (1.0,), [1, 2], 1],
                             ["bool", "int", "float", "torch.Tensor", "list", "tuple",
                              "(list, tuple)", "(int, float, bool)"],
                             ["bool", "int", "float", "Tensor", "List[int]", "Tuple[float]",
                              "List[int]", "int"]):
    CASES.append((f'''
def func(x):
    # type: ({_hint}) -> bool
    return isinstance(x, {_typ})
''', [(_inp,)]))
