"""Modules for the module-scripting tests. Their forwards use only operations that work on
numpy arrays too (@, +, *, indexing, shape), so they also run eagerly."""

from typing import Final, List, Optional

import numpy as np

import ember.nn as nn

_rng = np.random.default_rng(0)


def _w(*shape, dtype=np.float32):
    return _rng.standard_normal(shape).astype(dtype)


class Affine(nn.Module):
    def __init__(self, n_in: int, n_out: int, bias: bool = True):
        super().__init__()
        self.weight = _w(n_in, n_out)
        self.bias = _w(n_out) if bias else None
        self.gain = 1.5

    def forward(self, x):
        y = x @ self.weight
        if self.bias is not None:
            y = y + self.bias
        return y * self.gain


class Doubler(nn.Module):
    def forward(self, x):
        return x + x


class Stack(nn.Module):
    """ModuleList with enumerate and len, a None submodule, Sequential, constants."""

    __constants__ = ["depth"]
    scale: Final[float]

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Affine(4, 8), Affine(8, 8, bias=False), Affine(8, 3)])
        self.head = nn.Sequential(Affine(3, 3), Doubler())
        self.skip = None
        self.depth = 3
        self.scale = 0.5
        self.names = ["a", "b"]

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = x * (x > 0)
        if self.skip is not None:
            x = self.skip(x)
        if self.training:
            x = x * 0.0
        return self.head(x) * self.scale + self.layers[-1].gain * self.depth


class Heads(nn.Module):
    """ModuleDict items/keys/values, zip of two lists, constant keys."""

    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"left": Affine(3, 2), "right": Affine(3, 2, bias=False)})
        self.pre = nn.ModuleList([Doubler(), Affine(3, 3)])
        self.post = nn.ModuleList([Affine(3, 3), Doubler()])

    def forward(self, x):
        for a, b in zip(self.pre, self.post):
            x = b(a(x))
        total = self.heads["left"](x)
        for name, head in self.heads.items():
            if name == "right":
                total = total + head(x)
        n = 0
        for key in self.heads.keys():
            n += len(key)
        for head in self.heads.values():
            total = total + head(x) * 0.25
        return total * float(n)


class Counter(nn.Module):
    """Mutable state: an attribute assigned by forward persists across calls."""

    def __init__(self):
        super().__init__()
        self.calls = 0
        self.history: List[int] = []
        self.offset = _w(3)

    def forward(self, x):
        self.calls += 1
        self.history.append(self.calls)
        return x + self.offset * float(self.calls)

    @nn.export
    def count(self) -> int:
        return self.calls


class Exported(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 3

    def forward(self, x):
        return x * float(self.k)

    @nn.export
    def describe(self, tag: str) -> str:
        return f"{tag}:{self.k}"

    @nn.export
    def twice(self, n: int = 4) -> int:
        return self._helper(n) * 2

    def _helper(self, n: int) -> int:
        return n + self.k


class Tied(nn.Module):
    """The same submodule twice and the same array in two modules: stored once."""

    def __init__(self):
        super().__init__()
        shared = Affine(16, 16)
        self.a = shared
        self.b = shared
        self.c = Affine(16, 16)
        self.c.weight = shared.weight

    def forward(self, x):
        return self.c(self.b(self.a(x)))


class Ints(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = np.arange(12, dtype=np.int64).reshape(3, 4)
        self.mask = np.array([True, False, True, True])
        self.sizes = (3, 4)
        self.opt: Optional[int] = None

    def forward(self, i: int):
        row = self.table[i]
        return row * self.sizes[1] + self.table[0]


class BadAttr(nn.Module):
    def __init__(self):
        super().__init__()
        self.thing = object()

    def forward(self, x):
        return x * self.thing


class Missing(nn.Module):
    def forward(self, x):
        return x * self.nothing_here


class BreakInUnrolled(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Doubler(), Doubler()])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
            break
        return x


class DynamicIndex(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Doubler(), Doubler()])

    def forward(self, x, i: int):
        return self.layers[i](x)


class NoForward(nn.Module):
    def helper(self, x):
        return x


class ClassConstants(nn.Module):
    K = 5
    NAME: Final[str] = "net"

    def forward(self, x):
        return x * float(self.K) if self.NAME == "net" else x
