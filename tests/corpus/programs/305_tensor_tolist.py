def argmax_rows(rows: List[List[float]]) -> List[int]:
    x = torch.tensor(rows)
    return torch.argmax(x, 1).tolist()


def as_floats(rows: List[List[float]]) -> List[List[float]]:
    return (torch.tensor(rows) * 0.5).tolist()


def as_bools(rows: List[List[float]]) -> List[List[bool]]:
    x = torch.tensor(rows)
    flags: List[List[bool]] = (x > 1.0).tolist()
    return flags


def scalar(xs: List[int]) -> int:
    return torch.tensor(xs).sum().tolist()


def picked(xs: List[int], k: int) -> int:
    top = torch.topk(torch.tensor(xs), k)[1].tolist()
    return top[0] * 100 + len(top)


def cube(n: int) -> List[List[List[int]]]:
    return torch.arange(n * 2 * 2).reshape(n, 2, 2).tolist()


CASES = [
    ("argmax_rows", ([[0.1, 0.9, 0.3], [2.0, -1.0, 0.5]],)),
    ("as_floats", ([[1.0, 2.5], [0.1, -3.0]],)),
    ("as_bools", ([[0.5, 1.5], [2.0, 1.0]],)),
    ("scalar", ([1, 2, 3],)),
    ("picked", ([5, 1, 9, 3], 2)),
    ("cube", (2,)),
]
