def rsub(xs: List[float], ys: List[float]) -> List[List[float]]:
    x, y = torch.tensor(xs), torch.tensor(ys)
    return [torch.rsub(x, y).tolist(), torch.rsub(x, 1.0).tolist(),
            torch.rsub(x, y, alpha=2).tolist(), torch.rsub(x, 3, alpha=0.5).tolist()]


def rsub_int(xs: List[int]) -> List[int]:
    return torch.rsub(torch.tensor(xs), 10).tolist()


def rsub_int_alpha(xs: List[int]) -> List[int]:
    return torch.rsub(torch.tensor(xs), 10, alpha=1.5).tolist()


def tensordot(n: int) -> List[List[float]]:
    a = torch.arange(float(n * 3)).reshape(n, 3)
    b = torch.arange(12.0).reshape(3, 4)
    c = torch.arange(24.0).reshape(3, 2, 4)
    return [torch.tensordot(a, b, 1).flatten().tolist(),
            torch.tensordot(c, c, 3).flatten().tolist(),
            torch.tensordot(a, c, dims=([1], [0])).flatten().tolist(),
            torch.tensordot(b, b, 0).sum(0).flatten().tolist(),
            torch.tensordot(c, c, dims=[[0, 2], [0, 2]]).flatten().tolist()]


def tensordot_mismatch(n: int) -> List[float]:
    a = torch.ones(2, n)
    b = torch.ones(3, 4)
    return torch.tensordot(a, b, 1).flatten().tolist()


def tri(r: int, c: int, k: int) -> List[List[List[int]]]:
    return [torch.tril_indices(r, c).tolist(), torch.tril_indices(r, c, k).tolist(),
            torch.triu_indices(r, c).tolist(), torch.triu_indices(r, c, k).tolist()]


CASES = [
    ("rsub", ([1.0, 2.5, -3.0], [0.5, 0.5, 0.5])),
    ("rsub_int", ([1, 20, -3],)),
    ("rsub_int_alpha", ([1, 2],)),
    ("tensordot", (2,)),
    ("tensordot_mismatch", (5,)),
    ("tri", (3, 3, 0)), ("tri", (3, 4, 1)), ("tri", (4, 2, -1)), ("tri", (0, 3, 0)),
    ("tri", (2, 5, 7)), ("tri", (3, 3, -9)),
]
