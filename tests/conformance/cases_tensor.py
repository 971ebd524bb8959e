"""Tensor basics as the JIT tests use them."""

CASES = [
    ('''
def f() -> Tensor:
    return torch.tensor([1, 2, 3])
''', [()]),
    ('''
def f() -> Tensor:
    return torch.tensor([1.0, 2.0]) * 2 + 1
''', [()]),
    ('''
def f() -> Tensor:
    return torch.tensor([[1, 2], [3, 4]], dtype=torch.float)
''', [()]),
    ('''
def f() -> Tensor:
    return torch.tensor(3.5)
''', [()]),
    ('''
def f() -> Tensor:
    return torch.tensor([True, False])
''', [()]),
    ('''
def f() -> List[int]:
    return torch.tensor([1, 2, 3]).tolist()
''', [()]),
    ('''
def f() -> List[List[float]]:
    return torch.ones(2, 2).tolist()
''', [()]),
    ('''
def f() -> int:
    return torch.tensor([5]).item()
''', [()]),
    ('''
def f() -> float:
    return torch.tensor([5.5]).item()
''', [()]),
    ('''
def f() -> Tuple[Tensor, Tensor, Tensor]:
    return torch.zeros(2, 3), torch.ones(3, dtype=torch.long), torch.full([2], 7.0)
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.arange(6).view(2, 3)
    return x[1] + x[:, 0].sum()
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.arange(10)
    return x[2:8:2]
''', [()]),
    ('''
def f() -> List[int]:
    x = torch.zeros(2, 3, 4)
    return [x.size(0), x.size(-1), x.dim(), x.numel(), len(x), x.shape[1]]
''', [()]),
    ('''
def f() -> List[int]:
    return list(torch.zeros(2, 3).size())
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1.0, -2.0, 3.0])
    return torch.where(x > 0, x, torch.zeros_like(x))
''', [()]),
    ('''
def f() -> bool:
    x = torch.tensor([1, 2])
    return bool(torch.equal(x, torch.tensor([1, 2])))
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.ones(2)
    x[0] = 5
    x += 1
    x.add_(1)
    x.mul_(2)
    return x
''', [()]),
    ('''
def f() -> str:
    return str(torch.zeros(2).dtype)
''', [()]),
    ('''
def f() -> Tensor:
    a = torch.tensor([1, 2, 3])
    return a.float() / 2
''', [()]),
    ('''
def f() -> Tensor:
    a = torch.tensor([1, 2, 3])
    return a / 2
''', [()]),
    ('''
def f() -> Tensor:
    a = torch.tensor([7, -7])
    return a // 2
''', [()]),
    ('''
def f() -> Tensor:
    a = torch.tensor([1, 2, 3])
    return a.to(torch.float64) + a.double() + a.long().float().double()
''', [()]),
    ('''
def f() -> List[bool]:
    a = torch.tensor([1.0])
    return [a.is_floating_point(), a.requires_grad, a.dtype == torch.float32]
''', [()]),
    ('''
def f() -> Tensor:
    a = torch.arange(4.0).reshape(2, 2)
    return a @ a + a.t() + a.transpose(0, 1).contiguous()
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([3, 1, 2])
    v, i = torch.sort(x)
    return v * 10 + i
''', [()]),
    ('''
def f() -> Tuple[Tensor, Tensor]:
    x = torch.tensor([[1.0, 5.0], [3.0, 2.0]])
    return torch.max(x, 1)
''', [()]),
    ('''
def f() -> List[Tensor]:
    x = torch.arange(6)
    return list(torch.chunk(x, 3)) + list(x.split(2))
''', [()]),
    ('''
def f() -> Tensor:
    return torch.stack([torch.ones(2), torch.zeros(2)], dim=1)
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.ones(2, 3)
    return x.unsqueeze(0).squeeze().permute(1, 0).flatten()
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1.0, 4.0, 9.0])
    return torch.sqrt(x) + x.exp().log() + x.abs().neg() + x.clamp(2.0, 5.0)
''', [()]),
    ('''
def f() -> float:
    x = torch.tensor([1.0, 2.0, 3.0])
    return x.mean().item() + x.std().item() + x.max().item()
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1, 2, 3])
    return x == 2
''', [()]),
    ('''
def f() -> int:
    x = torch.tensor([1, 2, 3])
    s = 0
    for v in x:
        s += int(v)
    return s
''', [()]),
    ('''
def f() -> Tensor:
    return torch.zeros([2, 2], dtype=torch.int32) + torch.eye(2, dtype=torch.int32)
''', [()]),
    ('''
def f() -> Tensor:
    return torch.linspace(0, 1, 5)
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([[1, 2], [3, 4]])
    return x.sum(dim=0, keepdim=True) + x.prod(1)
''', [()]),
    ('''
def f() -> int:
    return torch.argmax(torch.tensor([[1, 9], [8, 2]]), 1).tolist()[0]
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([0.5, 1.5])
    return torch.cat([x, x * 2], 0).view(-1, 2)
''', [()]),
    ('''
def f() -> List[float]:
    x = torch.tensor([1.5, 2.5])
    return [float(t) for t in x]
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.empty(3).fill_(2.0)
    return x.pow(2) + 2 ** x
''', [()]),
    ('''
def f() -> bool:
    x = torch.tensor([1, 2])
    return 2 in x
''', [()]),
    ('''
def f() -> Tensor:
    return torch.tensor([[1.0, 2.0], [3.0, 4.0]])[..., 1]
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.tensor([1.0, 2.0])
    return torch.tensor([x[0].item(), x[1].item() * 2])
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.zeros(3, 3)
    x[1, :] = 1.0
    x[:, 2] += 2.0
    return x
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.arange(6).view(2, 3)
    idx = torch.tensor([1, 0])
    return x[idx]
''', [()]),
    ('''
def f() -> Tensor:
    x = torch.arange(5)
    return x[x > 2]
''', [()]),
    ('''
def f() -> Tensor:
    return torch.randn(2, 3).size(1) * torch.ones(1)
''', [()]),
    ('''
def f() -> int:
    return torch.tensor(7).item() + 1
''', [()]),
    ('''
def f() -> str:
    return str(torch.tensor(7).item())
''', [()]),
]
