"""TorchScript checkScript-style cases written for ember (test_jit constructs: returns of
calls, chunk, type comments with tuples, pad_sequence, torch.linalg norms and qr)."""

import torch
CASES = [
('''
def pad_sequence_func(tensor_list, batch_first=False, padding_value=0.0):
    # type: (List[Tensor], bool, float) -> Tensor
    return torch.nn.utils.rnn.pad_sequence(tensor_list, batch_first, padding_value)
''', [([torch.ones(3, 5), torch.ones(4, 5)],), ([torch.ones(3, 5), torch.ones(4, 5)], True, 2.5)]),
('''
def test_if_tracing(x):
    if torch._C._get_tracing_state():
        return x + 1
    else:
        return x - 1
''', [(torch.ones(2),)]),
('''
def test_is_tracing(x):
    if torch.jit.is_tracing():
        return x + 1
    else:
        return x - 1
''', [(torch.ones(2),)]),
('''
def foo(a):
    b, c = torch.chunk(a, dim=0, chunks=2)
    return b
''', [(torch.rand(10, 3),)]),
('''
def foo(a, b, c):
    # type: (Tensor, int, Tuple[Tensor, int]) -> Tuple[int, Tensor]
    d, e = c
    return b + e, a + d

def bar():
    x = torch.ones(3, 4)
    a, b = foo(x, 3, (x, 3))
    return a, b
''', [()]),
('''
def diff_type_unused():
    if 1 == 1:
        c0 = 1
        print(c0)
    else:
        c0 = 1.0
        print(c0)
    return 1
''', [()]),
('''
def list_tensors(x):
    # type: (bool) -> Tuple[Tensor, List[Tensor]]
    if x:
        a = torch.zeros([1, 1])
        y = [a]
    else:
        a = torch.zeros([1, 2])
        y = [a]
    return a, y
''', [(True,), (False,)]),
('''
def float_fn(x, y):
    # type: (float, BroadcastingList3[float]) -> List[float]
    return y

def float_fn_call():
    return float_fn(1.0, 1.0), float_fn(1.0, (1.0, 2.0, 3.0))
''', [()]),
('''
def int_fn(x):
    # type: (BroadcastingList3[int]) -> List[int]
    return x

def g():
    return int_fn(1), int_fn((1, 2, 3)), int_fn([4, 5, 6])
''', [()]),
('''
def test_ints():
    return torch.nn.modules.utils._single(1), torch.nn.modules.utils._pair(2), torch.nn.modules.utils._triple(3)
''', [()]),
('''
def fn(x, y):
    # type: (Tensor, Tensor) -> Tuple[Tensor, Tensor, Tensor]
    return x, x * 2, x * 3

def fn_unpack(x):
    y, z, w = fn(x, x)
    return y

def fn_index(x):
    q = fn(x, x)
    return x
''', [(torch.ones(2, 2),)]),
('''
def fn_string(str, strpair):
    # type: (str, Tuple[str, str]) -> Tuple[str, int, str, str]
    str1, str2 = strpair
    return str, 2, str1, str2
''', [("1", ("3", "4"))]),
('''
def fn(x):
    return x.get_device() if False else x.is_cuda, x.device.type, x.is_sparse, x.is_quantized
''', [(torch.ones(1),)]),
]

# left out: what differs by design or is not implemented (the reason for each)
_LEFT_OUT = {
    7: 'BroadcastingList3 broadcasts a number in TorchScript, not in CPython',
    8: 'BroadcastingList3 broadcasts a number in TorchScript, not in CPython',
    9: 'torch.nn.modules.utils._pair gives a tuple in CPython, a list in TorchScript',
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]

CASES += [
('''
def f(x: Tensor):
    q, r = torch.linalg.qr(x)
    return torch.linalg.norm(x), torch.linalg.norm(x, dim=1), torch.linalg.norm(x[0], 1.0), torch.linalg.matrix_norm(x), torch.linalg.matrix_norm(x, "nuc"), q, r, torch.linalg.qr(x, "complete")[0]
''', [(torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]]),)]),
('''
def f(a: List[Tensor]):
    return torch.nn.utils.rnn.pad_sequence(a), torch.nn.utils.rnn.pad_sequence(a, True, -1.0, "left")
''', [([torch.ones(2, 3), torch.arange(3.).view(1, 3)],)]),
]

CASES += [
('''
def f(x: Tensor):
    return torch.mode(x, 1), x.mode(0, True), torch.mode(x.float()).values, x.mode().indices
''', [(torch.tensor([[1, 2, 2, 3, 3, 1], [5, 5, 4, 4, 1, 1]]),)]),
]

CASES += [
('''
def f(x: Tensor):
    return x.new_tensor([1.5, 2.0]), x.new_tensor([[1, 2]]), x.new_tensor(3), x.new_tensor([1, 2], dtype=torch.float64), x.new_tensor(x * 2)
''', [(torch.ones(2, dtype=torch.int32),), (torch.ones(2),)]),
]
