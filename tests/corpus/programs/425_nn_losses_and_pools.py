from typing import List

import torch
import torch.nn.functional as F


def distances(rows: List[List[float]], p: float) -> List[float]:
    return F.pdist(torch.tensor(rows, dtype=torch.float64), p).tolist()


def embedding_loss(a: List[List[float]], b: List[List[float]], t: List[int]) -> List[float]:
    x1 = torch.tensor(a, dtype=torch.float64)
    x2 = torch.tensor(b, dtype=torch.float64)
    target = torch.tensor(t)
    return [F.cosine_embedding_loss(x1, x2, target).item(),
            F.cosine_embedding_loss(x1, x2, target, 0.5, reduction="sum").item()]


def margins(scores: List[List[float]], labels: List[int], multi: List[List[int]]) -> List[float]:
    x = torch.tensor(scores, dtype=torch.float64)
    y = torch.tensor(labels)
    return [F.multi_margin_loss(x, y).item(),
            F.multi_margin_loss(x, y, 2, 0.5, reduction="sum").item(),
            F.multilabel_margin_loss(x, torch.tensor(multi)).item()]


def ranking(a: List[float], b: List[float], y: List[List[float]]) -> float:
    return F.margin_ranking_loss(torch.tensor(a), torch.tensor(b), torch.tensor(y)).item()


def pools(n: int) -> List[float]:
    x = torch.arange(float(2 * n * n), dtype=torch.float64).reshape(1, 2, n, n) / 8.0
    return F.lp_pool2d(x, 2.0, 2).flatten().tolist() + \
        F.lp_pool1d(x[0], 1.0, 3, 1).flatten().tolist()


def tbc(t: int) -> List[float]:
    x = torch.arange(float(t * 2 * 3)).reshape(t, 2, 3) / 8.0
    w = torch.ones(2, 3, 4, dtype=torch.float32) / 4.0
    return torch.conv_tbc(x, w, torch.arange(4.0), 1).flatten().tolist()


CASES = [("distances", ([[0.0, 1.0], [2.0, 3.0], [4.0, -1.0]], 2.0)),
         ("distances", ([[0.0, 1.0], [2.0, 3.0], [4.0, -1.0]], 1.0)),
         ("embedding_loss", ([[1.0, 0.0], [0.5, 0.5]], [[0.0, 1.0], [1.0, 1.0]], [1, -1])),
         ("margins", ([[0.1, 0.4, -0.3], [1.0, 0.2, 0.3]], [2, 0], [[0, 1, -1], [2, -1, 0]])),
         ("ranking", ([1.0, 2.0], [0.5, 3.0], [[1.0, -1.0]])),
         ("pools", (4,)), ("tbc", (3,))]
