"""Models of our own for the model tests, defined with torch.nn as their users write them.

Each entry of ZOO is (factory, input maker): the factory builds the model in eval mode with
seeded weights (batch-norm statistics randomized, so folding them is exercised); the input
maker takes a batch size and returns the forward's positional arguments.
"""

from __future__ import annotations

from typing import List, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUTagger(nn.Module):
    """Embedding -> bidirectional GRU -> per-token tag scores (log-softmax)."""

    def __init__(self, vocab: int = 50, dim: int = 16, hidden: int = 24, tags: int = 5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, tags)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.gru(self.embed(tokens))
        return F.log_softmax(self.out(h), dim=-1)


class BasicBlock(nn.Module):
    """ResNet basic block; `downsample` is None when the shapes already match."""

    def __init__(self, c_in: int, c_out: int, stride: int = 1):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.downsample = None
        if stride != 1 or c_in != c_out:
            self.downsample = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride=stride,
                                                      bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.relu(out + identity)


class MiniResNet(nn.Module):
    def __init__(self, classes: int = 10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(16), nn.ReLU())
        self.layers = nn.Sequential(BasicBlock(16, 16), BasicBlock(16, 32, stride=2),
                                    BasicBlock(32, 32))
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(32, classes)

    def forward(self, x):
        x = self.layers(self.stem(x))
        return self.fc(torch.flatten(self.pool(x), 1))


class DepthwiseSeparable(nn.Module):
    """MobileNetV1-style blocks: depthwise 3x3 + pointwise 1x1, ReLU6."""

    def __init__(self):
        super().__init__()
        chans = [(8, 16, 1), (16, 32, 2), (32, 32, 1)]
        self.stem = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        blocks = []
        for c_in, c_out, s in chans:
            blocks.append(nn.Sequential(
                nn.Conv2d(c_in, c_in, 3, stride=s, padding=1, groups=c_in, bias=False),
                nn.BatchNorm2d(c_in), nn.ReLU6(),
                nn.Conv2d(c_in, c_out, 1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU6()))
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Linear(32, 6)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=(2, 3)))


class AttentionClassifier(nn.Module):
    """Embedding + positional table -> multi-head self-attention -> masked mean -> linear."""

    def __init__(self, vocab: int = 40, dim: int = 32, heads: int = 4, classes: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(12, dim) * 0.1)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.pos[: tokens.size(1)]
        a, _ = self.attn(x, x, x, need_weights=False)
        x = self.norm(x + a)
        return self.fc(x.mean(dim=1))


class Encoder(nn.Module):
    """Two pre-norm transformer encoder layers with GELU."""

    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                           dropout=0.0, activation="gelu", batch_first=True,
                                           norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.proj = nn.Linear(32, 8)

    def forward(self, x):
        return self.proj(self.encoder(x))


class AudioCNN(nn.Module):
    """1-D convolutions over a waveform-like signal."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(2, 8, 5, padding=2), nn.BatchNorm1d(8), nn.LeakyReLU(0.1),
            nn.MaxPool1d(2),
            nn.Conv1d(8, 16, 3, dilation=2, padding=2), nn.BatchNorm1d(16), nn.ELU(),
            nn.AdaptiveAvgPool1d(4))
        self.fc = nn.Linear(64, 4)

    def forward(self, x):
        return self.fc(self.net(x).flatten(1))


class StackedLSTM(nn.Module):
    """Two-layer bidirectional LSTM, sequence-first, with an explicit initial state."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 10, num_layers=2, bidirectional=True)
        self.fc = nn.Linear(20, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h0 = torch.zeros(4, x.size(1), 10)
        c0 = torch.zeros(4, x.size(1), 10)
        out, (h, c) = self.lstm(x, (h0, c0))
        return self.fc(out[-1]) + h.sum(dim=0).mean(dim=1, keepdim=True)


class ResidualMLP(nn.Module):
    """MLP blocks with LayerNorm, GELU, Dropout (eval) and residual connections."""

    def __init__(self, dim: int = 24, depth: int = 3):
        super().__init__()
        self.inp = nn.Linear(10, dim)
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(),
                          nn.Dropout(0.1), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.out = nn.Linear(dim, 2)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = h + block(h)
        return self.out(h)


class AutoEncoder(nn.Module):
    """Returns a tuple: the reconstruction and the code."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(20, 12), nn.Tanh(), nn.Linear(12, 4))
        self.dec = nn.Sequential(nn.Linear(4, 12), nn.SiLU(), nn.Linear(12, 20), nn.Sigmoid())

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        z = self.enc(x)
        return self.dec(z), z


class SEBlock(nn.Module):
    def __init__(self, c: int, r: int = 4):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // r, 1)
        self.fc2 = nn.Conv2d(c // r, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * torch.sigmoid(self.fc2(F.silu(self.fc1(s))))


class SENet(nn.Module):
    """Convolutions with hardswish, average pooling and squeeze-excitation gates."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 12, 3, padding=1)
        self.act = nn.Hardswish()
        self.se1 = SEBlock(12)
        self.pool = nn.AvgPool2d(2)
        self.conv2 = nn.Conv2d(12, 24, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(24)
        self.se2 = SEBlock(24)
        self.fc = nn.Linear(24, 5)

    def forward(self, x):
        x = self.pool(self.se1(self.act(self.conv1(x))))
        x = self.se2(F.hardswish(self.bn(self.conv2(x))))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


class MultiHead(nn.Module):
    """A ModuleList of blocks and a ModuleDict of heads; cat / chunk / stack."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(8, 4), "reg": nn.Linear(8, 2)})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feats: List[torch.Tensor] = []
        for i, block in enumerate(self.blocks):
            x = torch.relu(block(x)) + x * (i + 1)
            feats.append(x)
        a, b = torch.stack(feats, dim=1).sum(dim=1).chunk(2, dim=1)
        h = torch.cat([b, a], dim=1)
        return torch.cat([self.heads["cls"](h), self.heads["reg"](h)], dim=1)


class Siamese(nn.Module):
    """One encoder applied to two inputs (its weights are stored once)."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        ea, eb = self.encoder(a), self.encoder(b)
        return (ea * eb).sum(dim=1) / (ea.norm(dim=1) * eb.norm(dim=1) + 1e-6)


class Scorer(nn.Module):
    """Element-wise ops: where, clamp, softplus, argmax; returns (scores, labels)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 6)
        self.register_buffer("threshold", torch.tensor(0.1))

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        y = self.fc(x)
        y = torch.where(y > self.threshold, y, F.softplus(y) * 0.5)
        y = torch.clamp(y, min=-2.0, max=2.0)
        return F.log_softmax(y, dim=1), y.argmax(dim=1)


class ConvBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and ReLU (a U-Net stage)."""

    def __init__(self, c_in: int, c_out: int):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
                                  nn.Conv2d(c_out, c_out, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))

    def forward(self, x):
        return self.body(x)


class TinyUNet(nn.Module):
    """U-Net: two down stages, transposed-convolution upsampling (one told its output size,
    one a bilinear Upsample), skip connections by concatenation, per-pixel class scores."""

    def __init__(self, c: int = 8, classes: int = 3):
        super().__init__()
        self.enc1, self.enc2 = ConvBlock(3, c), ConvBlock(c, 2 * c)
        self.pool = nn.MaxPool2d(2)
        self.mid = ConvBlock(2 * c, 4 * c)
        self.up2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
        self.dec2 = ConvBlock(4 * c, 2 * c)
        self.up1 = nn.Sequential(nn.Upsample(scale_factor=2, mode="bilinear",
                                             align_corners=False),
                                 nn.Conv2d(2 * c, c, 1))
        self.dec1 = ConvBlock(2 * c, c)
        self.head = nn.Conv2d(c, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(m, output_size=e2.shape), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.head(d1)


class ESPCN(nn.Module):
    """Efficient sub-pixel super-resolution: reflection-padded convolutions with PReLU and
    Tanh, then PixelShuffle to 3x the input size."""

    def __init__(self, scale: int = 3):
        super().__init__()
        self.body = nn.Sequential(
            nn.ReflectionPad2d(2), nn.Conv2d(1, 32, 5), nn.PReLU(32),
            nn.ReplicationPad2d(1), nn.Conv2d(32, 16, 3), nn.Tanh(),
            nn.ZeroPad2d(1), nn.Conv2d(16, scale * scale, 3))
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, x):
        return torch.clamp(self.shuffle(self.body(x)), 0.0, 1.0)


class DCGANGenerator(nn.Module):
    """DCGAN generator: a latent vector through strided transposed convolutions with batch
    norm and ReLU to a Tanh image (16 x 16)."""

    def __init__(self, nz: int = 16, c: int = 16):
        super().__init__()
        self.nz = nz
        self.net = nn.Sequential(
            nn.ConvTranspose2d(nz, 2 * c, 4, 1, 0, bias=False), nn.BatchNorm2d(2 * c),
            nn.ReLU(True),
            nn.ConvTranspose2d(2 * c, c, 4, 2, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU(True),
            nn.ConvTranspose2d(c, 3, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, z):
        return self.net(z.view(-1, self.nz, 1, 1))


class KeywordSpotter(nn.Module):
    """A small audio model: gated 1-d convolutions (GLU), SELU, a transposed convolution
    back up, a max over time and a log-softmax head."""

    def __init__(self, mels: int = 10, c: int = 16, words: int = 6):
        super().__init__()
        self.conv1 = nn.Conv1d(mels, 2 * c, 3, padding=1)
        self.glu = nn.GLU(dim=1)
        self.conv2 = nn.Conv1d(c, c, 3, stride=2, padding=1)
        self.act = nn.SELU()
        self.up = nn.ConvTranspose1d(c, c, 4, stride=2, padding=1)
        self.pad = nn.ConstantPad1d((1, 1), -1.0)
        self.fc = nn.Linear(c, words)

    def forward(self, x):
        h = self.glu(self.conv1(x))
        h = self.up(self.act(self.conv2(h))) + h
        h = torch.amax(self.pad(h), dim=2)
        return F.log_softmax(self.fc(F.mish(h)), dim=-1)


def _tokens(vocab, length):
    return lambda b: (torch.randint(0, vocab, (b, length), generator=_gen()),)


def _randn(*shape):
    return lambda b: (torch.randn((b,) + shape, generator=_gen()),)


def _gen():
    return torch.Generator().manual_seed(7)


ZOO = {
    "gru_tagger": (GRUTagger, _tokens(50, 9)),
    "mini_resnet": (MiniResNet, _randn(3, 16, 16)),
    "depthwise_separable": (DepthwiseSeparable, _randn(3, 32, 32)),
    "attention_classifier": (AttentionClassifier, _tokens(40, 12)),
    "transformer_encoder": (Encoder, _randn(10, 32)),
    "audio_cnn": (AudioCNN, _randn(2, 64)),
    "stacked_lstm": (StackedLSTM, lambda b: (torch.randn(7, b, 6, generator=_gen()),)),
    "residual_mlp": (ResidualMLP, _randn(10)),
    "autoencoder": (AutoEncoder, _randn(20)),
    "senet": (SENet, _randn(3, 16, 16)),
    "multi_head": (MultiHead, _randn(8)),
    "siamese": (Siamese, lambda b: (torch.randn(b, 16, generator=_gen()),
                                    torch.randn(b, 16, generator=torch.Generator()
                                                .manual_seed(8)))),
    "scorer": (Scorer, _randn(12)),
    "tiny_unet": (TinyUNet, _randn(3, 16, 20)),
    "espcn": (ESPCN, lambda b: (torch.rand(b, 1, 12, 10, generator=_gen()),)),
    "dcgan_generator": (DCGANGenerator, _randn(16)),
    "keyword_spotter": (KeywordSpotter, _randn(10, 24)),
}


def make(name: str) -> nn.Module:
    factory, _ = ZOO[name]
    torch.manual_seed(0)
    model = factory()
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
                m.weight.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(c, generator=gen) * 0.1)
    return model.eval()


def inputs(name: str, batch: int):
    return ZOO[name][1](batch)
