"""Modules for test_mutation.py (compiled from this file's source)."""

import numpy as np

import ember.nn as nn
import ember.nn.functional as F


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.count = np.zeros(1, np.float32)

    def forward(self, x):
        self.count.add_(1.0)
        return x * self.count


class Slots(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = np.zeros((3, 2), np.float32)

    def forward(self, x, i: int):
        self.cache[i] = x
        return self.cache.sum(0)


class Mlp(nn.Module):
    def __init__(self, inplace: bool = False):
        super().__init__()
        self.a = nn.Linear(16, 32)
        self.b = nn.Linear(32, 4)
        self.inplace = inplace

    def forward(self, x):
        return self.b(F.relu(self.a(x), inplace=self.inplace))
