"""PyTorch's test_hash.py and test_slice.py checkScript cases, ported as CompilationUnit
sources, with the tests' inputs."""

import torch

CASES = [
    ('''
def fn(t1: Tuple[int, int], t2: Tuple[int, int]) -> bool:
    return hash(t1) == hash(t2)
''', [((1, 2), (1, 2)), ((1, 2), (3, 4)), ((1, 2), (2, 1))]),
    ('''
def fn(t1, t2):
    return hash(t1) == hash(t2)
''', [(torch.tensor(1), torch.tensor(2))]),
    ('''
def fn():
    n1 = None
    n2 = None
    return hash(n1) == hash(n2)
''', [()]),
    ('''
def fn(b1: bool, b2: bool):
    return hash(b1) == hash(b2)
''', [(True, False), (True, True), (False, True), (False, False)]),
    ('''
def fn(f1: float, f2: float):
    return hash(f1) == hash(f2)
''', [(1.2345, 1.2345), (1.2345, 6.789), (1.2345, float("inf")), (float("inf"), float("inf")),
      (1.2345, float("nan")), (float("nan"), float("inf"))]),
    ('''
def fn(i1: int, i2: int):
    return hash(i1) == hash(i2)
''', [(123, 456), (123, 123), (123, -123), (-123, -123), (123, 0)]),
    ('''
def fn(s1: str, s2: str):
    return hash(s1) == hash(s2)
''', [("foo", "foo"), ("foo", "bar"), ("foo", "")]),
    ('''
def fn(d1: torch.device, d2: torch.device):
    return hash(d1) == hash(d2)
''', [(torch.device("cuda:0"), torch.device("cuda:0")), (torch.device("cuda:0"), torch.device("cuda:1")),
      (torch.device("cuda:0"), torch.device("cpu")), (torch.device("cpu"), torch.device("cpu"))]),
    ('''
def fn(t1: Tuple[int, List[int]]):
    return hash(t1)
''', [((1, [1]),)]),
    ('''
def three_nones(x: List[int]):
    return x[slice(None, None, None)]
''', [(list(range(10)),)]),
    ('''
def two_nones(x: List[int]):
    return x[slice(None, None)]
''', [(list(range(10)),)]),
    ('''
def one_none(x: List[int]):
    return x[slice(None)]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(5)]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(None, 5, None)]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(1, 5)]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(1, 5, None)]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(0, 6, 2)]
''', [(list(range(10)),)]),
    ('''
def fn(x: str):
    return x[slice(None, 3, 1)]
''', [("foo_bar",)]),
    ('''
def fn(x: torch.Tensor):
    return x[slice(None, 3, 1)]
''', [(torch.ones(10),)]),
    ('''
def fn(x: torch.Tensor):
    return x[slice(None, 3, 1), 0]
''', [(torch.ones((10, 10)),)]),
    ('''
def fn(x: torch.Tensor):
    return x[slice(None, 3, 1), ...]
''', [(torch.ones((10, 10)),)]),
    ('''
def fn(x: List[int]):
    a = slice(1)
    return x[a]
''', [(list(range(10)),)]),
    ('''
def fn(x: List[int]):
    return x[slice(1000)]
''', [(list(range(10)),)]),
    ('''
def t(x):
    slice1 = x[0:1]
    zero = 0
    one = zero + 1
    slice2 = x[zero:one]
    return slice1 + slice2
''', [(torch.zeros(3, 2, 3),)]),
    ('''
def tuple_slice(a):
    b = (1, 2, 3, 4) if bool(a) else (4, 3, 2, 1)
    c = b[-4:4]
    e = c[1:-1]
    return e
''', [(torch.tensor([1]),), (torch.tensor(0),)]),
]
