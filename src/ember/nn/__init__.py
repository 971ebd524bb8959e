"""ember.nn: layers written in the scriptable subset; they run eagerly on numpy arrays and
compile with ember.script. torch is never needed (torch.nn modules given to ember.script
are converted to these, see ember.nn.from_torch)."""

from ember.nn import functional, init
from ember.nn.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    SELU,
    Sigmoid,
    SiLU,
    Softmax,
    Softmax2d,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)
from ember.nn.attention import MultiheadAttention
from ember.nn.conv import Conv1d, Conv2d, Conv3d
from ember.nn.conv_transpose import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ember.nn.distance import CosineSimilarity, PairwiseDistance
from ember.nn.fold import Fold, Unfold
from ember.nn.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from ember.nn.linear import Bilinear, Linear
from ember.nn.misc import (
    ChannelShuffle,
    Dropout,
    Embedding,
    EmbeddingBag,
    Flatten,
    Identity,
    Unflatten,
)
from ember.nn.module import Module, ModuleDict, ModuleList, Sequential, export
from ember.nn.norm import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    LayerNorm,
    LocalResponseNorm,
    RMSNorm,
)
from ember.nn.padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from ember.nn.pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from ember.nn.rnn import GRU, LSTM, RNN
from ember.nn.rnn_cell import GRUCell, LSTMCell, RNNCell
from ember.nn.transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from ember.nn.upsample import (
    PixelShuffle,
    PixelUnshuffle,
    Upsample,
    UpsamplingBilinear2d,
    UpsamplingNearest2d,
)

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Bilinear", "CELU", "ChannelShuffle",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
    "ConstantPad3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "CosineSimilarity", "Dropout", "ELU", "Embedding", "EmbeddingBag",
    "Flatten", "Fold", "GELU", "GLU", "GRU", "GRUCell", "GroupNorm", "Hardshrink", "Hardsigmoid",
    "Hardswish", "Hardtanh", "Identity", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "LPPool1d", "LPPool2d", "LPPool3d", "LSTM", "LSTMCell", "LayerNorm", "LeakyReLU", "Linear",
    "LocalResponseNorm", "LogSigmoid", "LogSoftmax", "MaxPool1d", "MaxPool2d", "MaxPool3d",
    "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
    "Mish", "Module", "ModuleDict", "ModuleList", "MultiheadAttention", "PReLU",
    "PairwiseDistance", "PixelShuffle", "PixelUnshuffle", "RMSNorm", "RNN", "RNNCell", "ReLU",
    "ReLU6", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d",
    "ReplicationPad2d", "ReplicationPad3d", "SELU", "Sequential", "SiLU", "Sigmoid", "Softmax",
    "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh", "Tanhshrink",
    "Threshold", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
    "TransformerEncoder", "TransformerEncoderLayer", "Unflatten", "Unfold", "Upsample", "UpsamplingBilinear2d",
    "UpsamplingNearest2d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "export", "functional", "init",
]
