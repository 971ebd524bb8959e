"""More TorchScript idioms: tensor conditions, Optional tensors, isinstance on tensors,
comprehensions over tensors, annotate with Optional."""

import torch

V = torch.tensor([1.0, -2.0, 3.0, 0.5])

CASES = [
    ('''
def f(x):
    i = 0
    while x.sum() < 20:
        x = x * 2
        i += 1
    return x, i
''', [(torch.tensor([1.0, 2.0]),)]),
    ('''
def f(x: Optional[torch.Tensor], y: torch.Tensor):
    if x is not None:
        y = y + x
    return y
''', [(None, V), (V, V)]),
    ('''
def f(x):
    return isinstance(x, torch.Tensor), isinstance(x, int)
''', [(V,)]),
    ('''
def f(x):
    return [t * 2 for t in x], [float(t) for t in x]
''', [(V,)]),
    ('''
def f():
    a = torch.jit.annotate(Optional[int], None)
    if a is None:
        a = 5
    return a
''', [()]),
    ('''
def f(x):
    assert bool(x.sum() != 0), "sum is zero"
    return x.sum()
''', [(V,)]),
    ('''
def f(d: Dict[str, torch.Tensor]):
    out = torch.zeros(1)
    for k, v in d.items():
        out = out + v.sum()
    return out, list(d.keys())
''', [({"a": V, "b": V * 2},)]),
    ('''
def f(x):
    for i in range(len(x)):
        x[i] = x[i] * i
    return x
''', [(V.clone(),)]),
    ('''
def f(xs: List[torch.Tensor]):
    return torch.stack(xs).sum(0), len(xs), xs[-1]
''', [([V, V * 3],)]),
    ('''
def f(x):
    y = x if bool(x[0] > 0) else -x
    return y.abs().max(), int(y.argmax())
''', [(V,)]),
    ('''
def f(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    a, b = torch.max(x, 0)
    return a, b
''', [(V,)]),
    ('''
def f(s: str):
    out: List[str] = []
    for c in "abc":
        out.append(c + s)
    return out
''', [("x",)]),
    ('''
def f(x: int):
    return torch.tensor(x) + 1, torch.tensor([x, x]) * 2.5, torch.tensor(float(x))
''', [(3,)]),
    ('''
def f(x):
    return int(x.sum()), float(x.max()), bool(x.min() < 0)
''', [(V,)]),
    ('''
def f(x):
    return x.float().div(2).round(), x.ceil(), x.trunc(), x.sign(), x.reciprocal()
''', [(V,)]),
    ('''
def f(x, y):
    return torch.cat((x, y)), torch.stack((x, y), 1), torch.max(x, y)
''', [(V, V * -1)]),
    ('''
def f(x):
    return x.sum(dim=[0]), x.mean(dim=0, keepdim=True), torch.sum(x, 0), torch.mean(x)
''', [(V,)]),
    ('''
def f(n: int):
    return torch.ones(n, n).triu(), torch.eye(n).diag(), torch.zeros([n]).fill_(2.0)
''', [(3,)]),
    ('''
def f(x):
    y = x.detach()
    z = x.clone().requires_grad_(False)
    return y, z, x.data if False else x.numel()
''', [(V,)]),
    ('''
def f(x: torch.Tensor, k: int = 2):
    return x.view(k, -1), x.size(), x.dtype == torch.float
''', [(V,), (V, 4)]),
]

CASES += [
    ('''
def f(x):
    torch._check(x.sum().item() > -1000)
    torch._check(x.sum().item() > -1000, "sum too small")
    torch._check(message="sum too small", cond=x.sum().item() > -1000)
    sizes = torch.jit.annotate(List[int], x.tolist())
    for s in sizes:
        torch._check(s > -100)
    return x
''', [(torch.tensor([1, 2, 3]),)]),
    ('''
def f(x):
    a = torch.zeros_like(x, dtype=torch.uint8)
    a[torch.tensor(0)] = torch.tensor(2, dtype=torch.uint8)
    a[1] = 3
    return a
''', [(torch.zeros(3, dtype=torch.uint8),)]),
    ('''
def f(x):
    scalar = x.item()
    return int(scalar), float(scalar)
''', [(torch.tensor(1.0),), (torch.tensor(1),)]),
    ('''
def f(x: List[int]) -> List[int]:
    a, b, c = x[0], x[1], x[2]
    del a, b, c
    del x[0], x[1]
    return x
''', [([0, 1, 2, 3],)]),
]
