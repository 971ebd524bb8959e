"""Functions taking tensors (unannotated parameters are Tensors), as test_jit writes them."""

import torch

torch.manual_seed(0)
A = torch.randn(3, 4)
B = torch.randn(3, 4)
V = torch.tensor([1.0, -2.0, 3.0, 0.5])
I = torch.tensor([3, 1, 2, 0])
M = torch.randn(4, 5)

CASES = [
    ('''
def f(x, y):
    return x + y, x - y, x * y, x / y, x ** 2, -x
''', [(A, B)]),
    ('''
def f(x, y):
    return torch.add(x, y, alpha=2), x.add(y), x.sub(y, alpha=0.5), torch.mul(x, 2), x.div(2)
''', [(A, B)]),
    ('''
def f(x):
    return x.view(-1), x.reshape(4, 3), x.t(), x.transpose(0, 1), x.permute(1, 0)
''', [(A,)]),
    ('''
def f(x):
    return x.sum(), x.sum(0), x.sum(dim=1, keepdim=True), x.mean(1), x.max(), x.min(0)
''', [(A,)]),
    ('''
def f(x):
    return torch.relu(x), torch.sigmoid(x), torch.tanh(x), x.exp(), x.abs().sqrt(), x.clamp(min=0.0)
''', [(A,)]),
    ('''
def f(x, y):
    return torch.matmul(x, y), x.mm(y), x @ y
''', [(A, M)]),
    ('''
def f(x):
    return torch.cat([x, x], 0), torch.stack([x, x]), x.chunk(2, 1), x.split(1, 0)
''', [(A,)]),
    ('''
def f(x):
    return x[0], x[:, 1], x[1:, :2], x[-1, -1], x[0, 0].item()
''', [(A,)]),
    ('''
def f(x):
    y = x.clone()
    y[y < 0] = 0.0
    return y, x > 0, (x > 0).sum(), x.masked_fill(x > 0, 1.0)
''', [(A,)]),
    ('''
def f(x, idx):
    return x[idx], x.index_select(0, idx[:2]), torch.gather(x, 0, idx), x.argsort(), x.argmax()
''', [(V, I)]),
    ('''
def f(x):
    return torch.nn.functional.softmax(x, dim=1), torch.nn.functional.relu(x), torch.nn.functional.log_softmax(x, 1)
''', [(A,)]),
    ('''
def f(x):
    return x.unsqueeze(0).shape, x.unsqueeze(-1).size(), x.squeeze().dim(), x.numel(), x.size()
''', [(A,)]),
    ('''
def f(x):
    return x.new_zeros([2]), torch.zeros_like(x), torch.ones_like(x), torch.full_like(x, 3.0), x.new_ones(3)
''', [(V,)]),
    ('''
def f(x):
    x.add_(1)
    x.mul_(2)
    return x
''', [(V,)]),
    ('''
def f(x: torch.Tensor, n: int):
    out = []
    for i in range(n):
        out.append(x * i)
    return torch.stack(out)
''', [(V, 3)]),
    ('''
def f(x):
    if bool(x.sum() > 0):
        return x
    else:
        return -x
''', [(V,), (-V,)]),
    ('''
def f(x):
    if x.sum() > 0:
        return x
    return -x
''', [(V,), (-V,)]),
    ('''
def f(x):
    s = 0.0
    for v in x:
        s += float(v)
    return s
''', [(V,)]),
    ('''
def f(x):
    return x.float().mean(), x.long(), x.to(torch.int32), x.type_as(torch.zeros(1, dtype=torch.float64))
''', [(I,)]),
    ('''
def f(x):
    return torch.where(x > 0, x, torch.zeros_like(x)), torch.max(x, torch.zeros_like(x)), torch.min(x)
''', [(V,)]),
    ('''
def f(x):
    return x.expand(2, 4), x.repeat(2), x.flip(0), x.cumsum(0), x.sort(descending=True)
''', [(V,)]),
    ('''
def f(x, y):
    return x == y, x.eq(y), torch.equal(x, y), x.ne(y), torch.allclose(x, y)
''', [(V, V), (V, V * 2)]),
    ('''
def f(x):
    return x.norm(), x.std(), x.var(), x.prod(), x.pow(2).sum().sqrt()
''', [(V,)]),
    ('''
def f(x):
    return x.topk(2), x.kthvalue(2), x.median(), x.unique() if False else x.floor()
''', [(V,)]),
    ('''
def f(x):
    return x.size(0) * 2, len(x), x.shape[0] + 1, x.dim()
''', [(A,)]),
    ('''
def f(x):
    return x.tolist()
''', [(V,)]) if False else ('''
def f(x) -> List[float]:
    return x.tolist()
''', [(V,)]),
    ('''
def f(x, y: float, z: int):
    return x * y + z, x / z, y * x, z - x
''', [(V, 2.5, 3)]),
    ('''
def f(x):
    return torch.nn.functional.linear(x, torch.ones(2, 4)), torch.nn.functional.dropout(x, 0.5, False)
''', [(A,)]),
    ('''
def f(x):
    return x.contiguous().view(2, 2), x.narrow(0, 1, 2), x.select(0, 1), x[None]
''', [(V,)]),
    ('''
def f(x):
    a, b = x.split(2)
    return a + b
''', [(V,)]),
    ('''
def f(x):
    return x.int() // 2, x.int() % 2, torch.fmod(x, 1.5), torch.remainder(x, 1.5), torch.floor_divide(x, 2)
''', [(V,)]),
    ('''
def f(x):
    return torch.tensor([x.size(0), 2]), torch.arange(x.size(0)), torch.linspace(0, 1, steps=x.size(0))
''', [(V,)]),
    ('''
def f(x):
    return x.any(), x.all(), (x > 0).any(), bool((x > 0).all()), x.nonzero()
''', [(V,)]),
    ('''
def f(x):
    return x.log_softmax(0), x.softmax(0), x.sigmoid(), x.relu(), x.neg()
''', [(V,)]),
]
