def positions(t: Tuple[int, str, int], x: int) -> Tuple[int, int, int]:
    return t.index(x), t.count(x), t.index("b")


def grids(v: List[float], w: List[float]) -> Tuple[List[List[float]], List[List[float]]]:
    a, b = torch.meshgrid(torch.tensor(v), torch.tensor(w))
    return a.tolist(), b.tolist()


def blocks(n: int) -> List[List[int]]:
    x = torch.ones(n, n, dtype=torch.int64)
    return torch.block_diag(x, x * 2).tolist()


def pieces(n: int) -> List[List[int]]:
    return [p.tolist() for p in torch.tensor_split(torch.arange(n), 3)]


def stats(xs: List[float]) -> Tuple[float, float, float, float]:
    x = torch.tensor(xs, dtype=torch.float64)
    v, m = torch.var_mean(x)
    lo, hi = torch.aminmax(x)
    return float(v), float(m), float(lo), float(hi)


def algebra(rows: List[List[float]]) -> Tuple[List[List[float]], float]:
    a = torch.tensor(rows, dtype=torch.float64)
    return torch.inverse(a).tolist(), float(torch.slogdet(a)[1])


CASES = [
    ("positions", ((3, "b", 3), 3)), ("positions", ((1, "b", 2), 7)),
    ("grids", ([1.0, 2.0], [3.0, 4.0, 5.0])),
    ("blocks", (2,)),
    ("pieces", (7,)), ("pieces", (2,)),
    ("stats", ([1.0, 2.0, 4.0, 8.0],)),
    ("algebra", ([[2.0, 1.0], [1.0, 3.0]],)),
]
