from typing import Dict, List

import torch


def g(a: int, b: int = 2) -> int:
    return a + b


def spread(d: Dict[str, int]) -> int:
    return g(**d)


def find(xs: List[int], v: int) -> int:
    ts = [torch.tensor(x) for x in xs]
    return ts.index(torch.tensor(v))


def broadcast(n: int) -> List[int]:
    a, b = torch.broadcast_tensors(torch.zeros(2, 2), torch.zeros(n, 2))
    return list(a.shape)


CASES = [("spread", ({"b": 1},)), ("spread", ({"a": 1},)), ("find", ([1, 2], 2)),
         ("find", ([1, 2], 9)), ("broadcast", (1,)), ("broadcast", (3,))]
