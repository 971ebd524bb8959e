from typing import List

import torch


def checked(xs: List[float]) -> float:
    x = torch.tensor(xs)
    torch._assert(x.sum() > 0, "the sum must be positive")
    torch._assert(len(xs) > 0, "empty")
    return float(x.mean())


CASES = [("checked", ([1.0, 2.0],)), ("checked", ([-1.0, -2.0],)), ("checked", ([1.0, -1.0],))]
