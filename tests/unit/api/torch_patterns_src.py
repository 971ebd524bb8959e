"""torch modules written the way torchvision writes them (for test_torch_patterns.py)."""

from typing import List, Optional

import torch
import torch.nn as nn
from torch import Tensor


def _log_usage(obj) -> None:  # not scriptable: no annotation, any object
    print(type(obj).__module__)


class ConvBNAct(nn.Sequential):
    """A Sequential subclass, as torchvision's Conv2dNormActivation."""

    def __init__(self, cin: int, cout: int, stride: int = 1):
        super().__init__(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))
        self.out_channels = cout


class Stages(nn.ModuleList):
    def forward(self, x: Tensor) -> List[Tensor]:
        outs: List[Tensor] = []
        for m in self:
            x = m(x)
            outs.append(x)
        return outs


def drop_path(x: Tensor, p: float, training: bool) -> Tensor:
    if not torch.jit.is_scripting() and not torch.jit.is_tracing():
        _log_usage(drop_path)
    if not training or p == 0.0:
        return x
    keep = 1.0 - p
    noise = torch.empty([x.shape[0]] + [1] * (x.ndim - 1), dtype=x.dtype)
    noise = noise.bernoulli_(keep)
    noise.div_(keep)
    return x * noise


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = ConvBNAct(3, 8)
        self.stages = Stages([ConvBNAct(8, 8), ConvBNAct(8, 16, 2)])
        self.pool = nn.MaxPool2d(3, 2, ceil_mode=True)
        self.avg = nn.AvgPool2d(2, ceil_mode=True, count_include_pad=False)

    def forward(self, x: Tensor) -> Tensor:
        x = self.stem(x)
        a, b = self.stages(x)
        a = drop_path(a, 0.2, self.training)
        half = torch.chunk(a, 2, dim=1)
        y = torch.cat((half[1], half[0]), dim=1)
        y = self.pool(y)
        return torch.cat((self.avg(b).flatten(1), y.flatten(1)), 1)


def open_bounds(x: Tensor, a: Optional[int], b: Optional[int]) -> Tensor:
    y = x.clone()
    y[a:b] = 0.0
    return torch.stack([y.sum(), x[a:b].sum(), x[None:b].sum(), x[a:None].sum()])


def window_mask(n: int) -> Tensor:
    """Swin's shifted-window mask: slice bounds from a tuple holding None."""
    m = torch.zeros(n, n)
    spans = ((0, -3), (-3, -1), (-1, None))
    c = 0
    for h in spans:
        for w in spans:
            m[h[0]:h[1], w[0]:w[1]] = c
            c += 1
    return m
