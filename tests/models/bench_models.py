"""The five suite-B models of the benchmark harness (../shared/bench/workloads/models.py),
copied so that the model tests need nothing outside this repository. float32, eval mode,
seeded weights, randomized batch-norm statistics."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    """784-256-256-10 with ReLU."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 256)
        self.fc3 = nn.Linear(256, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class SmallCNN(nn.Module):
    """3x32x32 -> 3 x [conv3x3(pad 1)-BN-ReLU] (16, 32, 32 ch) -> maxpool2 -> linear 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(32)
        self.relu2 = nn.ReLU()
        self.conv3 = nn.Conv2d(32, 32, 3, padding=1, bias=False)
        self.bn3 = nn.BatchNorm2d(32)
        self.relu3 = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(32 * 16 * 16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.relu1(self.bn1(self.conv1(x)))
        x = self.relu2(self.bn2(self.conv2(x)))
        x = self.relu3(self.bn3(self.conv3(x)))
        x = self.pool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)


class LSTMHead(nn.Module):
    """1-layer LSTM (input 64, hidden 128, batch_first), linear head on the last step."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(64, 128, num_layers=1, batch_first=True)
        self.fc = nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


class MBV3Block(nn.Module):
    """MobileNetV3 inverted residual: 16 -> 64 (1x1, BN, hardswish) -> dw3x3
    (BN, hardswish) -> squeeze-excite (64 -> 16 -> 64, ReLU / hardsigmoid) ->
    1x1 project to 16 (BN) -> + residual.  Input 16x56x56."""

    def __init__(self):
        super().__init__()
        self.expand = nn.Conv2d(16, 64, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.act1 = nn.Hardswish()
        self.dw = nn.Conv2d(64, 64, 3, padding=1, groups=64, bias=False)
        self.bn2 = nn.BatchNorm2d(64)
        self.act2 = nn.Hardswish()
        self.se_reduce = nn.Conv2d(64, 16, 1)
        self.se_relu = nn.ReLU()
        self.se_expand = nn.Conv2d(16, 64, 1)
        self.se_gate = nn.Hardsigmoid()
        self.project = nn.Conv2d(64, 16, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.act1(self.bn1(self.expand(x)))
        y = self.act2(self.bn2(self.dw(y)))
        s = F.adaptive_avg_pool2d(y, 1)
        s = self.se_gate(self.se_expand(self.se_relu(self.se_reduce(s))))
        y = y * s
        y = self.bn3(self.project(y))
        return x + y


def _transformer():
    return nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=512,
                                      dropout=0.0, activation="relu", batch_first=True)


MODELS = {
    # name: (factory, input shape without batch)
    "mlp": (MLP, (784,)),
    "cnn": (SmallCNN, (3, 32, 32)),
    "lstm": (LSTMHead, (32, 64)),
    "mbv3_block": (MBV3Block, (16, 56, 56)),
    "transformer": (_transformer, (32, 128)),
}


def _randomize_bn(model, gen):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            m.weight.data.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            m.bias.data.copy_(torch.randn(c, generator=gen) * 0.1)


def make_model(name, seed=0):
    factory, _ = MODELS[name]
    torch.manual_seed(seed)
    model = factory()
    gen = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        _randomize_bn(model, gen)
    return model.eval()


def make_input(name, batch, seed=123):
    _, shape = MODELS[name]
    gen = torch.Generator().manual_seed(seed)
    return torch.randn((batch,) + tuple(shape), generator=gen, dtype=torch.float32)
