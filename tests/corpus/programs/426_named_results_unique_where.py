from typing import List, Tuple

import torch


def extremes(rows: List[List[float]]) -> Tuple[List[float], List[int], List[int]]:
    x = torch.tensor(rows)
    r = torch.min(x, 0)
    m = x.max(1)
    return r.values.tolist(), r.indices.tolist(), m.indices.tolist()


def distinct(xs: List[int]) -> List[List[int]]:
    x = torch.tensor(xs)
    a = torch.unique(x)
    b, inv = torch.unique(x, return_inverse=True)
    c, counts = torch.unique(x, return_counts=True)
    d, inv2, counts2 = x.unique(return_counts=True, return_inverse=True)
    rows = torch.unique(x.view(-1, 2), dim=0)
    return [a.tolist(), inv.tolist(), counts.tolist(), inv2.tolist(), counts2.tolist(),
            rows.flatten().tolist()]


def positions(rows: List[List[float]]) -> List[List[int]]:
    x = torch.tensor(rows)
    i, j = torch.where(x > 0)
    k = x.nonzero(as_tuple=True)
    return [i.tolist(), j.tolist(), k[1].tolist(), torch.bincount(j, minlength=4).tolist()]


def shapes(n: int) -> List[List[int]]:
    a, b = torch.broadcast_tensors(torch.zeros(n, 1), torch.ones(1, 3))
    c = torch.row_stack([a, b])
    d = torch.inner(a, b)
    return [list(a.shape), list(c.shape), list(d.shape),
            [len(torch.functional.split(c, 2))]]


def running(xs: List[float]) -> List[float]:
    return torch.logcumsumexp(torch.tensor(xs, dtype=torch.float64), 0).tolist()


CASES = [("extremes", ([[1.0, 5.0, -2.0], [3.0, 2.0, 8.0]],)),
         ("distinct", ([3, 1, 2, 3, 3, 1],)),
         ("positions", ([[0.0, 1.5, -1.0, 2.0], [3.0, 0.0, 0.0, 4.0]],)),
         ("shapes", (2,)), ("running", ([0.0, 1.0, -2.0, 3.5],))]
