"""torch.nn built-in layers -> the equivalent ember.nn layers, weights copied.

    from ember.nn.from_torch import convert_layer, TORCH_LAYERS
    layer = convert_layer(torch.nn.Conv2d(3, 8, 3))     # an ember.nn.Conv2d

`TORCH_LAYERS` maps each supported torch layer class (exact class, not subclasses: a
subclass may override forward) to a converter. Converters copy hyper-parameters, then every
parameter and buffer as a numpy array of the same dtype (float32 stays float32).
Containers and user-defined torch modules are not converted here: ember.script walks them
and converts the built-in layers inside. torch is imported only when a table entry is
needed.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping

import numpy as np

import ember.nn as enn
from ember.errors import UnsupportedError
from ember.nn.torch_memory import frozen_array


PADDING_LAYERS = tuple(f"{kind}Pad{n}d" for kind in ("Zero", "Constant", "Reflection",
                                                     "Replication", "Circular")
                       for n in (1, 2, 3))


def _dtype(m) -> str | None:
    """The numpy dtype name of m's first floating parameter or buffer (None if it has none)."""
    for t in list(m.parameters()) + list(m.buffers()):
        if t.is_floating_point():
            return str(t.dtype).split(".")[-1]
    return None


_FROZEN = contextvars.ContextVar("ember_convert_frozen", default=False)
"""convert_layer(frozen=True) is running: tensors become frozen arrays (views of torch's
memory made copy-on-write, else copies: nn/torch_memory.py)."""


def _copy_tensors(layer, m):
    """Load m's state_dict into the ember layer: one copy per tensor, into the layer's
    arrays (or, under convert_layer(frozen=True), into frozen arrays that replace them);
    names match by design, and strict loading fills every tensor. Sublayers torch.ao
    quantized (a TransformerEncoderLayer's dynamic Linears) are converted on their own and
    replace the ember layer's float ones."""
    quantized = _quantized_sublayers(m)
    state = {k: v for k, v in m.state_dict().items()
             if not any(k.startswith(name + ".") for name in quantized)}
    for name, sub in quantized.items():
        *path, last = name.split(".")
        owner = layer
        for part in path:
            owner = getattr(owner, part)
        if not hasattr(owner, last):
            raise UnsupportedError(f"{type(m).__name__}.{name} is a torch.ao quantized layer "
                                   "where ember's layer has none")
        setattr(owner, last, convert_layer(sub))
    frozen = _FROZEN.get()
    arrays = {k: frozen_array(v) if frozen else v.detach().cpu().numpy()
              for k, v in state.items()}
    layer.load_state_dict(arrays, strict=not quantized, frozen=frozen)
    return layer


def _quantized_sublayers(m) -> dict:
    """name -> sublayer of m that torch.ao quantized (outermost ones only)."""
    out: dict = {}
    for name, sub in m.named_modules():
        if name and type(sub) in _AO_TYPES.get() and \
                not any(name.startswith(n + ".") for n in out):
            out[name] = sub
    return out


def _require(m, option: str, ok: bool, advice: str = "") -> None:
    if not ok:
        raise UnsupportedError(f"torch.nn.{type(m).__name__} with {option} has no ember "
                               f"equivalent yet" + (f"; {advice}" if advice else ""))


# ----------------------------------------------------------------------------- converters


def _linear(m):
    return _copy_tensors(enn.Linear(m.in_features, m.out_features, m.bias is not None,
                                    dtype=_dtype(m)), m)


def _bilinear(m):
    return _copy_tensors(enn.Bilinear(m.in1_features, m.in2_features, m.out_features,
                                      m.bias is not None, dtype=_dtype(m)), m)


def _conv(cls):
    def convert(m):
        layer = cls(m.in_channels, m.out_channels, m.kernel_size, m.stride, m.padding,
                    m.dilation, m.groups, m.bias is not None, m.padding_mode, dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _conv_transpose(cls):
    def convert(m):
        layer = cls(m.in_channels, m.out_channels, m.kernel_size, m.stride, m.padding,
                    m.output_padding, m.groups, m.bias is not None, m.dilation,
                    dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _batch_norm(cls):
    def convert(m):
        layer = cls(m.num_features, m.eps, m.momentum, m.affine, m.track_running_stats,
                    dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _layer_norm(m):
    layer = enn.LayerNorm(m.normalized_shape, m.eps, m.elementwise_affine,
                          bias=getattr(m, "bias", None) is not None, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _instance_norm(cls):
    def convert(m):
        layer = cls(m.num_features, m.eps, m.momentum, m.affine, m.track_running_stats,
                    dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _rms_norm(m):
    layer = enn.RMSNorm(m.normalized_shape, m.eps, m.elementwise_affine, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _group_norm(m):
    layer = enn.GroupNorm(m.num_groups, m.num_channels, m.eps, m.affine, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _embedding(m):
    _require(m, f"max_norm={m.max_norm}", m.max_norm is None,
             "renormalize the weight once and drop max_norm")
    layer = enn.Embedding(m.num_embeddings, m.embedding_dim, m.padding_idx, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _embedding_bag(m):
    _require(m, f"max_norm={m.max_norm}", m.max_norm is None,
             "renormalize the weight once and drop max_norm")
    layer = enn.EmbeddingBag(m.num_embeddings, m.embedding_dim, mode=m.mode,
                             include_last_offset=m.include_last_offset,
                             padding_idx=m.padding_idx, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _rnn(cls):
    def convert(m):
        _require(m, f"proj_size={getattr(m, 'proj_size', 0)}", not getattr(m, "proj_size", 0),
                 "use proj_size=0 and a Linear on the outputs")
        layer = cls(m.input_size, m.hidden_size, m.num_layers, m.bias, m.batch_first,
                    m.dropout, m.bidirectional, dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _elman(m):
    layer = enn.RNN(m.input_size, m.hidden_size, m.num_layers, m.nonlinearity, m.bias,
                    m.batch_first, m.dropout, m.bidirectional, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _cell(cls):
    def convert(m):
        extra = (m.nonlinearity,) if cls is enn.RNNCell else ()
        layer = cls(m.input_size, m.hidden_size, m.bias, *extra, dtype=_dtype(m))
        return _copy_tensors(layer, m)
    return convert


def _mha(m):
    _require(m, "kdim/vdim different from embed_dim", m._qkv_same_embed_dim,
             "project key and value to embed_dim first")
    _require(m, "add_bias_kv=True", m.bias_k is None)
    _require(m, "add_zero_attn=True", not m.add_zero_attn)
    layer = enn.MultiheadAttention(m.embed_dim, m.num_heads, m.dropout,
                                   m.in_proj_bias is not None, batch_first=m.batch_first,
                                   dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _torch_activation(m) -> str:
    import torch

    act = m.activation
    if act in (torch.nn.functional.relu, torch.relu) or type(act) is torch.nn.ReLU:
        return "relu"
    if act is torch.nn.functional.gelu or (type(act) is torch.nn.GELU and
                                           act.approximate == "none"):
        return "gelu"
    raise UnsupportedError(f"torch.nn.{type(m).__name__} with activation {act!r} has no "
                           "ember equivalent yet (ember supports relu and gelu); write the "
                           "layer as a custom nn.Module with a forward ember can compile")


def _encoder_layer(m):
    attn = m.self_attn
    _mha(attn)  # refuses the attention options ember lacks
    layer = enn.TransformerEncoderLayer(
        attn.embed_dim, attn.num_heads, m.linear1.out_features, m.dropout.p,
        _torch_activation(m), m.norm1.eps, attn.batch_first, m.norm_first,
        bias=m.linear1.bias is not None, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _decoder_layer(m):
    attn = m.self_attn
    _mha(attn)  # refuses the attention options ember lacks
    _mha(m.multihead_attn)
    layer = enn.TransformerDecoderLayer(
        attn.embed_dim, attn.num_heads, m.linear1.out_features, m.dropout.p,
        _torch_activation(m), m.norm1.eps, attn.batch_first, m.norm_first,
        bias=m.linear1.bias is not None, dtype=_dtype(m))
    return _copy_tensors(layer, m)


def _final_norm(m):
    """The ember LayerNorm of an encoder's or decoder's final norm (None if it has none)."""
    import torch

    if m.norm is None:
        return None
    if type(m.norm) is not torch.nn.LayerNorm:
        raise UnsupportedError(f"torch.nn.{type(m).__name__} with norm "
                               f"{type(m.norm).__name__} has no ember equivalent yet (ember "
                               "supports a LayerNorm)")
    return _layer_norm(m.norm)


def _decoder(m):
    layers = [_decoder_layer(x) for x in m.layers]
    dec = enn.TransformerDecoder(layers[0], len(layers), _final_norm(m))
    dec.layers = enn.ModuleList(layers)
    return dec


def _encoder(m):
    layers = [_encoder_layer(x) for x in m.layers]
    enc = enn.TransformerEncoder(layers[0], len(layers), _final_norm(m), m.enable_nested_tensor)
    enc.layers = enn.ModuleList(layers)
    return enc


def _transformer(m):
    t = enn.Transformer(m.d_model, m.nhead, 0, 0, batch_first=m.batch_first,
                        custom_encoder=_converted_stack(m.encoder),
                        custom_decoder=_converted_stack(m.decoder))
    t.train(False)
    return t


def _converted_stack(m):
    """An encoder or decoder of an nn.Transformer, converted (a custom one must be a torch
    TransformerEncoder / TransformerDecoder too)."""
    from torch import nn

    if type(m) not in (nn.TransformerEncoder, nn.TransformerDecoder):
        raise UnsupportedError(f"torch.nn.Transformer with a custom {type(m).__name__} has "
                               "no ember equivalent yet; script the encoder and decoder "
                               "stacks as your own nn.Module")
    return TORCH_LAYERS[type(m)](m)


def _upsample(cls):
    def convert(m):
        from ember.nn.upsample import MODES

        _require(m, f"mode={m.mode!r}", m.mode in MODES, f"ember implements {list(MODES)}")
        if cls is enn.Upsample:
            return enn.Upsample(m.size, m.scale_factor, m.mode, m.align_corners,
                                m.recompute_scale_factor)
        return cls(m.size, m.scale_factor)
    return convert


def _padding(name: str):
    if name.startswith("Constant"):
        return lambda m: getattr(enn, name)(m.padding, m.value)
    return lambda m: getattr(enn, name)(m.padding)


def _adaptive_max(cls):
    return lambda m: cls(m.output_size, m.return_indices)


def _lp_pool(cls):
    return lambda m: cls(m.norm_type, m.kernel_size, m.stride, m.ceil_mode)


def _simple(make):
    """A converter for a layer without tensors: make(torch_module) -> ember module."""
    return make


def _dynamic_linear(m):
    """torch.ao.nn.quantized.dynamic.Linear (qint8 weights) -> ember.nn.quantized.DynamicLinear."""
    from ember.nn.quantized import DynamicLinear
    w, scale = _qweight(m.weight(), "dynamic quantized Linear")
    return DynamicLinear(w, scale, _bias(m.bias()))


def _qweight(w, what):
    """(int8 codes, float32 scales) of a symmetric qint8 weight (per tensor or channel)."""
    import torch
    if w.dtype != torch.qint8:
        raise UnsupportedError(f"{what} with {w.dtype} weights: ember converts qint8 only")
    if w.qscheme() in (torch.per_channel_affine, torch.per_channel_symmetric):
        if w.q_per_channel_axis() != 0:
            raise UnsupportedError(f"{what}: per-channel weights along axis "
                                   f"{w.q_per_channel_axis()}; ember takes axis 0")
        scale = w.q_per_channel_scales().numpy().astype(np.float32)
        zps = w.q_per_channel_zero_points().numpy()
    else:
        scale, zps = np.array([w.q_scale()], np.float32), np.array([w.q_zero_point()])
    if np.any(zps != 0):
        raise UnsupportedError(f"{what} with nonzero weight zero points: ember converts "
                               "symmetric int8 weights only")
    return w.int_repr().numpy().copy(), scale


def _bias(b):
    return None if b is None else b.detach().numpy().astype(np.float32).copy()


def _ao_quantize(m):
    import torch

    from ember.nn.quantized import Quantize
    if m.dtype != torch.quint8:
        raise UnsupportedError(f"Quantize to {m.dtype}: ember's static models take quint8 "
                               "activations")
    return Quantize(float(m.scale.reshape(-1)[0]), int(m.zero_point.reshape(-1)[0]))


def _ao_conv(relu):
    def convert(m):
        from ember.nn.quantized import QuantizedConv2d
        if m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise UnsupportedError(f"quantized Conv2d with padding={m.padding!r}, "
                                   f"padding_mode={m.padding_mode!r}: ember converts zero "
                                   "padding given as integers")
        w, s = _qweight(m.weight(), "quantized Conv2d")
        return QuantizedConv2d(w, s, _bias(m.bias()), float(m.scale), int(m.zero_point),
                               m.stride, m.padding, m.dilation, int(m.groups), relu)
    return convert


def _ao_conv1d(relu):
    def convert(m):
        from ember.nn.quantized import QuantizedConv1d
        if m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise UnsupportedError(f"quantized Conv1d with padding={m.padding!r}, "
                                   f"padding_mode={m.padding_mode!r}: ember converts zero "
                                   "padding given as integers")
        w, s = _qweight(m.weight(), "quantized Conv1d")
        return QuantizedConv1d(w[:, :, None, :].copy(), s, _bias(m.bias()), float(m.scale),
                               int(m.zero_point), (1, m.stride[0]), (0, m.padding[0]),
                               (1, m.dilation[0]), int(m.groups), relu)
    return convert


def _ao_linear(relu):
    def convert(m):
        from ember.nn.quantized import QuantizedLinear
        w, s = _qweight(m.weight(), "quantized Linear")
        return QuantizedLinear(w, s, _bias(m.bias()), float(m.scale), int(m.zero_point),
                               relu)
    return convert


def _dynamic_rnn(cls):
    def convert(m):
        import torch
        if m.dtype != torch.qint8:
            raise UnsupportedError(f"dynamic quantized {m._get_name()} with {m.dtype} "
                                   "weights: ember converts qint8 only")
        return cls(m)
    return convert


class _AoTypes:
    """The torch.ao quantized layer classes ember converts (built on first use)."""

    def __init__(self):
        self._types = None

    def get(self) -> frozenset:
        if self._types is None:
            self._types = frozenset(t for t in _ao_table()
                                    if t.__module__.startswith("torch.ao.nn.quantized"))
        return self._types


_AO_TYPES = _AoTypes()


def _ao_table() -> dict:
    try:
        import torch.ao.nn.intrinsic.quantized as nniq
        import torch.ao.nn.quantized as nnq
        import torch.ao.nn.quantized.dynamic as nnqd
    except ImportError:
        return {}
    import torch.ao.quantization.stubs as stubs

    from ember.nn import quantized as eq
    return {stubs.QuantStub: lambda m: enn.Identity(),
            stubs.DeQuantStub: lambda m: enn.Identity(),
            nnq.FloatFunctional: lambda m: eq.FloatFunctional(),
            nnq.ReLU6: lambda m: enn.ReLU6(), nnq.Dropout: lambda m: enn.Dropout(m.p),
            nnq.Hardswish: lambda m: eq.QuantizedHardswish(float(m.scale),
                                                           int(m.zero_point)),
            nnqd.Linear: _dynamic_linear, nnq.Quantize: _ao_quantize,
            nnqd.LSTM: _dynamic_rnn(eq.DynamicLSTM), nnqd.GRU: _dynamic_rnn(eq.DynamicGRU),
            nnq.DeQuantize: lambda m: eq.DeQuantize(),
            nnq.Conv2d: _ao_conv(False), nniq.ConvReLU2d: _ao_conv(True),
            nnq.Conv1d: _ao_conv1d(False), nniq.ConvReLU1d: _ao_conv1d(True),
            nnq.Linear: _ao_linear(False), nniq.LinearReLU: _ao_linear(True),
            nnq.QFunctional: lambda m: eq.QFunctional(float(m.scale), int(m.zero_point))}


def _table() -> dict:
    from torch import nn

    return {
        **_ao_table(),
        nn.Linear: _linear, nn.modules.linear.NonDynamicallyQuantizableLinear: _linear,
        nn.Bilinear: _bilinear,
        nn.Conv1d: _conv(enn.Conv1d), nn.Conv2d: _conv(enn.Conv2d),
        nn.Conv3d: _conv(enn.Conv3d),
        nn.ConvTranspose1d: _conv_transpose(enn.ConvTranspose1d),
        nn.ConvTranspose2d: _conv_transpose(enn.ConvTranspose2d),
        nn.ConvTranspose3d: _conv_transpose(enn.ConvTranspose3d),
        nn.BatchNorm1d: _batch_norm(enn.BatchNorm1d), nn.BatchNorm2d: _batch_norm(enn.BatchNorm2d),
        nn.BatchNorm3d: _batch_norm(enn.BatchNorm3d),
        nn.LayerNorm: _layer_norm, nn.GroupNorm: _group_norm, nn.Embedding: _embedding,
        nn.EmbeddingBag: _embedding_bag,
        nn.InstanceNorm1d: _instance_norm(enn.InstanceNorm1d),
        nn.InstanceNorm2d: _instance_norm(enn.InstanceNorm2d),
        nn.InstanceNorm3d: _instance_norm(enn.InstanceNorm3d),
        nn.RMSNorm: _rms_norm,
        nn.LocalResponseNorm: _simple(lambda m: enn.LocalResponseNorm(m.size, m.alpha, m.beta,
                                                                       m.k)),
        nn.Dropout: _simple(lambda m: enn.Dropout(m.p)),
        # identities at inference, as Dropout
        nn.Dropout1d: _simple(lambda m: enn.Dropout(m.p)),
        nn.Dropout2d: _simple(lambda m: enn.Dropout(m.p)),
        nn.Dropout3d: _simple(lambda m: enn.Dropout(m.p)),
        nn.AlphaDropout: _simple(lambda m: enn.Dropout(m.p)),
        nn.FeatureAlphaDropout: _simple(lambda m: enn.Dropout(m.p)),
        nn.Identity: _simple(lambda m: enn.Identity()),
        nn.Flatten: _simple(lambda m: enn.Flatten(m.start_dim, m.end_dim)),
        nn.Unflatten: _simple(lambda m: enn.Unflatten(m.dim, m.unflattened_size)),
        nn.ChannelShuffle: _simple(lambda m: enn.ChannelShuffle(m.groups)),
        nn.CosineSimilarity: _simple(lambda m: enn.CosineSimilarity(m.dim, m.eps)),
        nn.PairwiseDistance: _simple(lambda m: enn.PairwiseDistance(m.norm, m.eps, m.keepdim)),
        nn.ReLU: _simple(lambda m: enn.ReLU()), nn.ReLU6: _simple(lambda m: enn.ReLU6()),
        nn.LeakyReLU: _simple(lambda m: enn.LeakyReLU(m.negative_slope)),
        nn.ELU: _simple(lambda m: enn.ELU(m.alpha)),
        nn.GELU: _simple(lambda m: enn.GELU(m.approximate)),
        nn.SiLU: _simple(lambda m: enn.SiLU()), nn.Sigmoid: _simple(lambda m: enn.Sigmoid()),
        nn.Tanh: _simple(lambda m: enn.Tanh()), nn.Hardswish: _simple(lambda m: enn.Hardswish()),
        nn.Hardsigmoid: _simple(lambda m: enn.Hardsigmoid()),
        nn.Hardtanh: _simple(lambda m: enn.Hardtanh(m.min_val, m.max_val)),
        nn.Softplus: _simple(lambda m: enn.Softplus(m.beta, m.threshold)),
        nn.PReLU: lambda m: _copy_tensors(enn.PReLU(m.num_parameters, dtype=_dtype(m)), m),
        nn.SELU: _simple(lambda m: enn.SELU()),
        nn.CELU: _simple(lambda m: enn.CELU(m.alpha)), nn.Mish: _simple(lambda m: enn.Mish()),
        nn.Threshold: _simple(lambda m: enn.Threshold(m.threshold, m.value)),
        nn.LogSigmoid: _simple(lambda m: enn.LogSigmoid()),
        nn.Softsign: _simple(lambda m: enn.Softsign()),
        nn.Tanhshrink: _simple(lambda m: enn.Tanhshrink()),
        nn.Hardshrink: _simple(lambda m: enn.Hardshrink(m.lambd)),
        nn.Softshrink: _simple(lambda m: enn.Softshrink(m.lambd)),
        nn.GLU: _simple(lambda m: enn.GLU(m.dim)),
        # at inference RReLU is a leaky ReLU with the mean slope
        nn.RReLU: _simple(lambda m: enn.LeakyReLU((m.lower + m.upper) / 2)),
        nn.Softmax: _simple(lambda m: enn.Softmax(m.dim)),
        nn.Softmin: _simple(lambda m: enn.Softmin(m.dim)),
        nn.Softmax2d: _simple(lambda m: enn.Softmax2d()),
        nn.LogSoftmax: _simple(lambda m: enn.LogSoftmax(m.dim)),
        nn.MaxPool1d: _simple(lambda m: enn.MaxPool1d(m.kernel_size, m.stride, m.padding,
                                                      m.dilation, m.return_indices,
                                                      m.ceil_mode)),
        nn.MaxPool2d: _simple(lambda m: enn.MaxPool2d(m.kernel_size, m.stride, m.padding,
                                                      m.dilation, m.return_indices,
                                                      m.ceil_mode)),
        nn.AvgPool1d: _simple(lambda m: enn.AvgPool1d(m.kernel_size, m.stride, m.padding,
                                                      m.ceil_mode, m.count_include_pad)),
        nn.AvgPool2d: _simple(lambda m: enn.AvgPool2d(m.kernel_size, m.stride, m.padding,
                                                      m.ceil_mode, m.count_include_pad,
                                                      m.divisor_override)),
        nn.MaxPool3d: _simple(lambda m: enn.MaxPool3d(m.kernel_size, m.stride, m.padding,
                                                      m.dilation, m.return_indices,
                                                      m.ceil_mode)),
        **{getattr(nn, f"MaxUnpool{n}d"): _simple(
            lambda m, n=n: getattr(enn, f"MaxUnpool{n}d")(m.kernel_size, m.stride, m.padding))
           for n in (1, 2, 3)},
        nn.AvgPool3d: _simple(lambda m: enn.AvgPool3d(m.kernel_size, m.stride, m.padding,
                                                      m.ceil_mode, m.count_include_pad,
                                                      m.divisor_override)),
        **{getattr(nn, f"LPPool{n}d"): _lp_pool(getattr(enn, f"LPPool{n}d")) for n in (1, 2, 3)},
        nn.AdaptiveAvgPool1d: _simple(lambda m: enn.AdaptiveAvgPool1d(m.output_size)),
        nn.AdaptiveAvgPool2d: _simple(lambda m: enn.AdaptiveAvgPool2d(m.output_size)),
        nn.AdaptiveAvgPool3d: _simple(lambda m: enn.AdaptiveAvgPool3d(m.output_size)),
        nn.Upsample: _upsample(enn.Upsample),
        nn.UpsamplingNearest2d: _upsample(enn.UpsamplingNearest2d),
        nn.UpsamplingBilinear2d: _upsample(enn.UpsamplingBilinear2d),
        nn.Fold: _simple(lambda m: enn.Fold(m.output_size, m.kernel_size, m.dilation, m.padding,
                                            m.stride)),
        nn.Unfold: _simple(lambda m: enn.Unfold(m.kernel_size, m.dilation, m.padding,
                                                m.stride)),
        nn.PixelShuffle: _simple(lambda m: enn.PixelShuffle(m.upscale_factor)),
        nn.PixelUnshuffle: _simple(lambda m: enn.PixelUnshuffle(m.downscale_factor)),
        **{getattr(nn, name): _padding(name) for name in PADDING_LAYERS},
        nn.AdaptiveMaxPool1d: _adaptive_max(enn.AdaptiveMaxPool1d),
        nn.AdaptiveMaxPool2d: _adaptive_max(enn.AdaptiveMaxPool2d),
        nn.AdaptiveMaxPool3d: _adaptive_max(enn.AdaptiveMaxPool3d),
        nn.LSTM: _rnn(enn.LSTM), nn.GRU: _rnn(enn.GRU), nn.RNN: _elman,
        nn.LSTMCell: _cell(enn.LSTMCell), nn.GRUCell: _cell(enn.GRUCell),
        nn.RNNCell: _cell(enn.RNNCell),
        nn.MultiheadAttention: _mha,
        nn.TransformerEncoderLayer: _encoder_layer, nn.TransformerEncoder: _encoder,
        nn.TransformerDecoderLayer: _decoder_layer, nn.TransformerDecoder: _decoder,
        nn.Transformer: _transformer,
    }


class _LazyTable(Mapping):
    """A dict built on first use, so importing this module does not import torch."""

    def __init__(self, build):
        self._build = build
        self._data = None

    def _get(self) -> dict:
        if self._data is None:
            self._data = self._build()
        return self._data

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __contains__(self, key) -> bool:
        return key in self._get()


TORCH_LAYERS: Mapping = _LazyTable(_table)
"""torch.nn layer class -> converter(torch_module) -> ember.nn module."""


def convert_layer(m, frozen: bool = False):
    """The ember.nn equivalent of torch built-in layer `m`, weights copied; UnsupportedError
    if ember has none or cannot honour m's configuration. frozen=True: the layer's tensors
    are read-only frozen copies (what ember.script uses; kernels may cache from them)."""
    convert = TORCH_LAYERS.get(type(m))
    if convert is not None:
        token = _FROZEN.set(frozen)
        try:
            with enn.init.no_draws():  # every tensor is overwritten by _copy_tensors
                layer = convert(m)
        finally:
            _FROZEN.reset(token)
        layer.train(False)
        return layer
    raise UnsupportedError(_refusal(m))


def _refusal(m) -> str:
    from torch import nn

    cls = type(m)
    name = f"{cls.__module__}.{cls.__qualname__}"
    if isinstance(m, (nn.Sequential, nn.ModuleList, nn.ModuleDict)):
        return (f"convert_layer converts single built-in layers, and {cls.__name__} is a "
                "container: ember.script walks containers itself and converts the layers "
                "inside")
    if not isinstance(m, nn.Module):
        return f"convert_layer expects a torch.nn.Module, got {name}"
    if cls.__module__.startswith(("torch.nn.", "torch.ao.")):
        return (f"ember has no equivalent of torch.nn.{cls.__name__} yet; write it as a "
                "custom nn.Module whose forward ember can compile (from the operators in "
                "ember.nn.functional), or replace it with a supported layer")
    return (f"{name} is a user-defined module, not a torch built-in layer: convert_layer "
            "does not convert it; ember.script compiles its forward and converts the built-in "
            "layers inside")
