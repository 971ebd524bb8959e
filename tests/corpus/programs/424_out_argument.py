from typing import List, Tuple

import torch


def accumulate(xs: List[float], ys: List[float]) -> Tuple[List[float], List[float]]:
    a, b = torch.tensor(xs), torch.tensor(ys)
    e = 2 * a
    r = torch.add(a, b, out=e)
    r.mul_(2.0)  # r is e: the out tensor is the call's value
    n = torch.zeros(3, dtype=torch.float64)
    torch.mul(a, -0.5, out=n)
    return e.tolist(), n.tolist()


def narrowed(xs: List[int]) -> List[int]:
    t = torch.tensor(xs)
    out = torch.zeros(len(xs), dtype=torch.long)
    torch.mul(t, 3, out=out)
    return out.tolist()


def float_into_long(xs: List[float]) -> List[int]:
    out = torch.zeros(len(xs), dtype=torch.long)
    torch.mul(torch.tensor(xs), 2.5, out=out)
    return out.tolist()


CASES = [("accumulate", ([1.0, 2.0, 3.0], [0.5, 0.5, 0.5])), ("narrowed", ([1, -2, 5],)),
         ("float_into_long", ([1.0, 2.0],))]
