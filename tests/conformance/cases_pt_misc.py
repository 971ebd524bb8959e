"""TorchScript checkScript-style cases written for ember (test_misc / test_aten_pow
constructs: -> Any with several return types, legacy tensor classes, ** of ints and floats)."""

import torch
CASES = [
('''
def func(x):
    hello, test = "Hello", "test"
    print(f"{hello + ' ' + test}, I'm a {test}")
    hi = 'hi'
    print(f"stuff before {hi}")
    return x + 1
''', [(torch.arange(4.),)]),
('''
def if_function(inp: torch.Tensor) -> Any:
    if inp.shape[0] == 1:
        return inp * inp
    else:
        return "str"
''', [(torch.randn(5),), (torch.ones(1),)]),
('''
def foo():
    return math.inf
''', [()]),
('''
def expects_intlist(x: List[int]):
    x.append(3)
    return x

def foo():
    return expects_intlist([])
''', [()]),
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
    )
''', [()]),
('''
def no_inputs():
    return torch.DoubleTensor()
''', [()]),
('''
def foo(x, dim: int):
    return x.unsqueeze(dim)
''', [(torch.randn(1,), 0)]),
('''
def forward(x: Any) -> str:
    if isinstance(x, str):
        return x
    return "foo"
''', [(1,), ("bar",)]),
('''
def fn(p: torch.Tensor, gamma: float = 2.0) -> torch.Tensor:
    p = torch.sigmoid(p)
    result = p ** gamma
    return result
''', [(torch.rand(2, 2),)]),
('''
def fn_int_int(a: int, b: int):
    return a**b
''', [(2, 1), (2, 0), (-2, 2), (0, 0), (0, 2), (0, -2)]),
('''
def fn_int_float(a: int, b: float):
    return a**b
''', [(2, 2.5), (2, -2.5), (2, -0.0), (-2, 2.0), (-2, -3.0), (0, 0.5), (0, -0.0), (0, -2.5)]),
('''
def fn_float_int(a: float, b: int):
    return a**b
''', [(2.5, 2), (2.5, -2), (-2.5, -3), (0.0, 0), (0.0, -2)]),
('''
def fn_float_float(a: float, b: float):
    return a**b
''', [(2.5, 2.0), (-2.5, -3.0), (0.0, -0.0), (0.0, -2.0)]),
]
