"""torch.nn modules written by users (no built-in layers) for the scripting tests."""

from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.w = nn.Parameter(torch.randn(n, n) / n)
        self.register_buffer("b", torch.randn(n))
        self.act = True

    def forward(self, x):
        y = x @ self.w + self.b
        return F.relu(y) if self.act else y


class Net(nn.Module):
    """torch containers of user modules, a None submodule, an int attribute, torch ops."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(Block(4), Block(4))
        self.extra = nn.ModuleList([Block(4)])
        self.heads = nn.ModuleDict({"a": Block(4)})
        self.down: Optional[nn.Module] = None
        self.k = 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(x)
        for b in self.extra:
            x = b(x)
        if self.down is not None:
            x = self.down(x)
        x = x + self.heads["a"](x)
        return torch.softmax(x * self.k, dim=-1)

    @torch.jit.export
    def scaled(self, x: torch.Tensor, s: float) -> torch.Tensor:
        return self.forward(x) * s


class Unsupported(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        return self.fc.some_python_only_thing(x)
