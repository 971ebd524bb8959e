def put(n: int) -> List[float]:
    x = torch.zeros(n)
    i = torch.tensor([0, n - 1, 0])
    v = torch.tensor([1.0, 2.0, 3.0])
    a = torch.index_put(x, [i[1:]], v[1:])
    b = x.index_put([i], v, accumulate=True)
    x.index_put_([i[:2]], v[:2])
    return a.tolist() + b.tolist() + x.tolist()


def grid(n: int) -> List[List[int]]:
    x = torch.zeros(n, n, dtype=torch.long)
    r = torch.arange(n)
    x.index_put_([r, n - 1 - r], torch.tensor(7), accumulate=True)
    return torch.ops.aten.add(x, 1).tolist()


def masked(xs: List[float]) -> List[float]:
    t = torch.tensor(xs)
    return torch.ops.aten._unsafe_index_put(t, [t < 0], torch.tensor(0.0)).tolist()


CASES = [
    ("put", (3,)), ("put", (5,)),
    ("grid", (3,)),
    ("masked", ([1.5, -2.0, 3.0, -0.5],)),
]
