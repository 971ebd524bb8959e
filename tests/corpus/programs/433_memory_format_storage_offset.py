from typing import List

import torch


def views(n: int) -> List[int]:
    x = torch.zeros(n, 4)
    y = x[1:]
    c = x.clone(memory_format=torch.contiguous_format)
    z = torch.zeros(2, layout=torch.strided)
    return [x.storage_offset(), y.storage_offset(), x.stride(0), c.numel(), z.numel(),
            int(x.is_signed()), int(torch.zeros(1, dtype=torch.uint8).is_signed())]


def running(xs: List[float]) -> List[int]:
    return torch.tensor(xs).cumsum(0, dtype=torch.int32).tolist()


CASES = [("views", (3,)), ("running", ([1.5, 2.5, -1.0],))]
