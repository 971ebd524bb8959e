from typing import List

import torch
from torch import Tensor
from torch.jit import Future


def halves(x: Tensor) -> List[Tensor]:
    return [x / 2, torch.ops.aten.relu(x)]


def forked(xs: List[float]) -> List[float]:
    x = torch.tensor(xs)
    futures = torch.jit.annotate(List[Future[List[Tensor]]], [])
    for _ in range(2):
        futures.append(torch.jit._fork(halves, x))
    out: List[float] = []
    for f in futures:
        parts = torch.jit._wait(f)
        out.append(float(parts[0].sum() + parts[1].sum()))
    return out


def ops(xs: List[float]) -> float:
    y = torch.ops.aten.neg(torch.tensor(xs))
    return float(torch.ops.aten.softmax(y, 0).sum() + torch.ops.aten.relu(y).sum())


CASES = [("forked", ([1.0, -2.0, 3.0],)), ("ops", ([0.5, -1.5],))]
