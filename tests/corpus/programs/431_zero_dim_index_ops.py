from typing import List

import torch


def scalar_ops(v: float) -> List[float]:
    x = torch.tensor(v, dtype=torch.float64)
    i = torch.tensor(0)
    out = [x.mean(0).item(), x.sum(-1, True).item(), x.gather(0, i).item(),
           torch.scatter(x, 0, i, 2.5).item(), x.topk(1)[0].item(),
           float(x.topk(1, 0)[1].item()), torch.index_fill(x, 0, i, 7.0).item(),
           torch.index_copy(x, 0, i, torch.tensor(3.0, dtype=torch.float64)).item(),
           torch.take(torch.arange(4.0), torch.tensor(2)).item()]
    return out + x.gather(0, torch.tensor([0])).tolist()


def matrices(n: int) -> List[float]:
    a = torch.eye(n, dtype=torch.float64) * 2.0
    b = torch.arange(float(n * n), dtype=torch.float64).reshape(n, n)
    z = torch.zeros(n, dtype=torch.float64)
    torch.fill_(z, 1.5)
    return [a.norm("nuc").item(), round(b.renorm(float("inf"), 0, 2.0).sum().item(), 9),
            torch.index_add(z, 0, torch.tensor([0, 0]), torch.ones(2, dtype=torch.float64)).sum().item(),
            torch.zero_(b).sum().item(), z.ger(z).sum().item(),
            round(torch.mvlgamma(torch.tensor([2.5, 3.0], dtype=torch.float64), 2).sum().item(), 9)]


CASES = [("scalar_ops", (1.5,)), ("matrices", (3,))]
