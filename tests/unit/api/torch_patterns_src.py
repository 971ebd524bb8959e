"""torch modules written the way torchvision writes them (for test_torch_patterns.py)."""

import warnings
from collections import namedtuple
from typing import List, Optional

import torch
import torch.utils.checkpoint
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


class DenseLayer(nn.Module):
    """torchvision's DenseNet layer: forward overloads, a flag-guarded branch calling a
    @torch.jit.unused method that compiled code cannot hold, requires_grad."""

    def __init__(self, cin: int, growth: int, memory_efficient: bool = False):
        super().__init__()
        self.norm = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, growth, 3, padding=1, bias=False)
        self.memory_efficient = memory_efficient

    def bn_function(self, inputs: List[Tensor]) -> Tensor:
        return torch.relu(self.norm(torch.cat(inputs, 1)))

    def any_requires_grad(self, input: List[Tensor]) -> bool:
        for tensor in input:
            if tensor.requires_grad:
                return True
        return False

    @torch.jit.unused
    def call_checkpoint_bottleneck(self, input: List[Tensor]) -> Tensor:
        def closure(*inputs):
            return self.bn_function(inputs)

        return torch.utils.checkpoint.checkpoint(closure, *input, use_reentrant=False)

    @torch.jit._overload_method  # noqa: F811
    def forward(self, input: List[Tensor]) -> Tensor:  # noqa: F811
        pass

    @torch.jit._overload_method  # noqa: F811
    def forward(self, input: Tensor) -> Tensor:  # noqa: F811
        pass

    def forward(self, input: Tensor) -> Tensor:  # noqa: F811
        if isinstance(input, Tensor):
            prev_features = [input]
        else:
            prev_features = input
        if self.memory_efficient and self.any_requires_grad(prev_features):
            out = self.call_checkpoint_bottleneck(prev_features)
        else:
            out = self.bn_function(prev_features)
        return self.conv(out)


class DenseBlock(nn.ModuleDict):
    def __init__(self, n: int, cin: int, growth: int):
        super().__init__()
        for i in range(n):
            self.add_module(f"layer{i}", DenseLayer(cin + i * growth, growth))

    def forward(self, x: Tensor) -> Tensor:
        features = [x]
        for name, layer in self.items():
            features.append(layer(features))
        return torch.cat(features, 1)


class DenseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = DenseBlock(3, 4, 2)
        self.single = DenseLayer(10, 3)

    def forward(self, x: Tensor) -> Tensor:
        y = self.block(x)
        return torch.cat([self.single(y), self.single([y])], 1)


Outputs = namedtuple("Outputs", ["logits", "aux"])
Outputs.__annotations__ = {"logits": Tensor, "aux": Optional[Tensor]}


class Mixed(nn.Module):
    """torchvision's Inception pattern: a variable rebound from a tensor to the list it
    is concatenated from; a namedtuple output under is_scripting() with warnings.warn."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 1)
        self.b = nn.Conv2d(4, 2, (1, 3), padding=(0, 1))
        self.c = nn.Conv2d(4, 2, (3, 1), padding=(1, 0))
        self.aux_logits = False

    def _forward(self, x: Tensor) -> List[Tensor]:
        branch = self.a(x)
        branch = [self.b(branch), self.c(branch)]
        branch = torch.cat(branch, 1)
        return [x, branch]

    @torch.jit.unused
    def eager_outputs(self, x: Tensor, aux: Optional[Tensor]) -> Outputs:
        return x  # type: ignore[return-value]

    def forward(self, x: Tensor) -> Outputs:
        x = torch.cat(self._forward(x), 1)
        aux: Optional[Tensor] = None
        if torch.jit.is_scripting():
            if not self.aux_logits:
                warnings.warn("Scripted Mixed always returns an Outputs tuple")
            return Outputs(x, aux)
        else:
            return self.eager_outputs(x, aux)
