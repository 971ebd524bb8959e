from typing import List

import torch
import torch.nn.functional as F


def grid(a: float, t: float) -> List[float]:
    theta = torch.tensor([[[a, 0.0, t], [0.0, 1.0, -t]]], dtype=torch.float64)
    return F.affine_grid(theta, [1, 1, 3, 5], align_corners=True).flatten().tolist()


def sample(mode: str, padding: str) -> List[float]:
    x = torch.arange(16.0, dtype=torch.float64).reshape(1, 1, 4, 4)
    g = torch.tensor([[[[0.5, -0.5], [-1.5, 0.25]], [[1.25, 1.0], [0.0, 0.0]]]],
                     dtype=torch.float64)
    return F.grid_sample(x, g, mode=mode, padding_mode=padding,
                         align_corners=True).flatten().tolist()


CASES = [("grid", (0.5, 0.25)), ("grid", (1.0, 0.0)),
         ("sample", ("bilinear", "zeros")), ("sample", ("bilinear", "border")),
         ("sample", ("bilinear", "reflection")), ("sample", ("nearest", "zeros"))]
