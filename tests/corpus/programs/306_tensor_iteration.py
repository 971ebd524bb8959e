def row_sums(rows: List[List[float]]) -> List[float]:
    out: List[float] = []
    for r in torch.tensor(rows):
        out.append(float(r.sum()))
    return out


def comprehension(rows: List[List[int]]) -> List[List[int]]:
    return [r.tolist() for r in torch.tensor(rows) * 2]


def enumerated(xs: List[int]) -> int:
    n = 0
    for i, v in enumerate(torch.tensor(xs)):
        n += i * int(v)
    return n


def zipped(xs: List[float], ys: List[float]) -> float:
    s = 0.0
    for a, b in zip(torch.tensor(xs), torch.tensor(ys)):
        s += float(a * b)
    return s


def rows_are_views(rows: List[List[float]]) -> List[List[float]]:
    x = torch.tensor(rows)
    for r in x:
        r.mul_(2.0)
    return x.tolist()


def zero_dim(x: float) -> int:
    n = 0
    for _ in torch.tensor(x):
        n += 1
    return n


def membership(xs: List[float]) -> List[bool]:
    t = torch.tensor(xs)
    return [2 in t, 2.5 in t, -1 in t, True in (t > 0), 7 not in t,
            torch.tensor([1.0, 3.0]) in t]


CASES = [
    ("row_sums", ([[1.0, 2.0], [3.0, 4.5]],)),
    ("comprehension", ([[1, 2], [3, 4], [5, 6]],)),
    ("enumerated", ([4, 5, 6],)),
    ("zipped", ([1.0, 2.0], [3.0, 4.0, 5.0])),
    ("rows_are_views", ([[1.0, 2.0], [3.0, 4.0]],)),
    ("zero_dim", (1.5,)),
    ("membership", ([1.0, 2.0, 3.0],)), ("membership", ([],)),
]
