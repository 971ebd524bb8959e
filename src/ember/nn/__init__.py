"""ember.nn: layers written in the scriptable subset; they run eagerly on numpy arrays and
compile with ember.script. torch is never needed (torch.nn modules given to ember.script
are converted to these, see ember.nn.from_torch)."""

from ember.nn import functional, init
from ember.nn.activation import (
    ELU,
    GELU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSoftmax,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from ember.nn.attention import MultiheadAttention
from ember.nn.conv import Conv1d, Conv2d
from ember.nn.conv_transpose import ConvTranspose1d, ConvTranspose2d
from ember.nn.linear import Bilinear, Linear
from ember.nn.misc import Dropout, Embedding, Flatten, Identity, Unflatten
from ember.nn.module import Module, ModuleDict, ModuleList, Sequential, export
from ember.nn.norm import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from ember.nn.pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from ember.nn.rnn import GRU, LSTM
from ember.nn.transformer import TransformerEncoder, TransformerEncoderLayer
from ember.nn.upsample import (
    PixelShuffle,
    PixelUnshuffle,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
)

__all__ = [
    "ELU", "GELU", "GRU", "LSTM", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AvgPool1d",
    "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "Bilinear", "Conv1d", "Conv2d", "ConvTranspose1d",
    "ConvTranspose2d", "Dropout",
    "Embedding", "Flatten", "GroupNorm", "Hardsigmoid", "Hardswish", "Hardtanh", "Identity",
    "LayerNorm", "LeakyReLU", "Linear", "LogSoftmax", "MaxPool1d", "MaxPool2d", "Module",
    "ModuleDict", "ModuleList", "MultiheadAttention", "ReLU", "ReLU6", "Sequential", "SiLU",
    "Sigmoid", "Softmax", "Softplus", "Tanh", "TransformerEncoder", "TransformerEncoderLayer",
    "Unflatten", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "PixelShuffle",
    "PixelUnshuffle", "export", "functional", "init",
]
