"""A small image classifier written with ember.nn: it runs eagerly on numpy arrays and
scripts into an artifact for the lite runtime."""

import numpy as np

import ember.nn as nn
import ember.nn.functional as F


class TinyNet(nn.Module):
    """3x32x32 -> conv-bn-relu x2 -> max pool -> squeeze-excite gate -> linear 10."""

    def __init__(self, classes: int = 10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2))
        self.gate = nn.Linear(32, 32)
        self.head = nn.Linear(32 * 16 * 16, classes)

    def forward(self, x):
        y = self.features(x)
        s = F.adaptive_avg_pool2d(y, 1)
        s = F.sigmoid(self.gate(F.flatten(s, 1)))
        y = y * F.reshape(s, [s.shape[0], s.shape[1], 1, 1])
        return F.softmax(self.head(F.flatten(y, 1)), dim=1)


def tiny_net(seed: int = 0) -> TinyNet:
    """TinyNet with seeded weights and non-trivial batch-norm statistics."""
    rng = np.random.default_rng(seed)
    net = TinyNet()
    for name, w in net.state_dict().items():
        if w.ndim == 0 or w.dtype.kind != "f":
            continue
        if name.endswith("running_var"):
            w[...] = rng.uniform(0.5, 1.5, w.shape)
        elif name.endswith("running_mean") or name.endswith("bias"):
            w[...] = rng.normal(0, 0.1, w.shape)
        else:
            w[...] = rng.normal(0, 1 / np.sqrt(max(w.size // w.shape[0], 1)), w.shape)
    return net.eval()
