"""TorchScript checkScript-style cases for Tensor attributes and keyword forms (stride(d),
storage_offset of a view, memory_format= / layout= constants, index_put, unfold, dtype=
of cumsum, is_signed, new_* constructors); the programs and inputs are ember's own."""

import torch

CASES = [
('''
def f(x: Tensor):
    return x.stride(0), x.t().stride(1), x.storage_offset(), x[1:].storage_offset(), x.is_leaf, x.data.shape
''', [(torch.zeros(3, 4),)]),
('''
def f(x: Tensor):
    return x.clone(memory_format=torch.contiguous_format), x.contiguous(memory_format=torch.contiguous_format), x.type_as(torch.zeros(1, dtype=torch.int64)), torch.zeros(2, layout=torch.strided), torch.empty_like(x, memory_format=torch.preserve_format).shape, x[None, None].contiguous(memory_format=torch.channels_last)
''', [(torch.arange(6.0).reshape(2, 3),)]),
('''
def f(x: Tensor):
    y = x.clone()
    y.index_put_([torch.tensor([0, 1])], torch.tensor(9.0))
    z = x.index_put((torch.tensor([1]),), torch.tensor([5.0, 6.0, 7.0]), accumulate=True)
    y.masked_fill_(y > 4, -1.0)
    return y, z
''', [(torch.arange(6.0).reshape(2, 3),)]),
('''
def f(x: Tensor):
    return x.unfold(0, 2, 1), x.sum(dim=0, dtype=torch.float64), x.cumsum(dim=0, dtype=torch.int32), x.mean(dim=(0,), keepdim=True)
''', [(torch.arange(6.0),)]),
('''
def f(x: Tensor):
    return x.numel(), x.nelement(), x.dim(), x.ndimension(), x.size(-1), x.get_device() if False else -1, x.is_complex(), x.is_signed()
''', [(torch.zeros(2, 3),), (torch.zeros(2, dtype=torch.uint8),)]),
('''
def f(x: Tensor):
    return torch.tensor(x.tolist()), x.tolist(), [float(v) for v in x], x.numpy() if False else x.sum().item()
''', [(torch.tensor([1.5, 2.5]),)]),
('''
def f(x: Tensor, y: Tensor):
    return torch.cat([x, y], -1), torch.stack((x, y), 1), torch.cat((x,)), torch.stack([x]), torch.cat([x.unsqueeze(0), y.unsqueeze(0)])
''', [(torch.ones(2, 2), torch.zeros(2, 2))]),
('''
def f(x: Tensor):
    return x.new_zeros((2,)), x.new_ones([1, 2]), x.new_full((2,), 3.5), x.new_empty((0,)).numel(), torch.empty_like(x).shape
''', [(torch.zeros(3, dtype=torch.int32),)]),
]
