"""Regenerates golden.npz: torch's (fbgemm engine) int8 results on small seeded inputs.

    python tests/unit/quant/make_golden.py      # needs torch; rewrites golden.npz beside it

Every array is named `<case>.<field>`; test_golden.py recomputes each case with
ember.ops.tensor_quant and counts the codes / outputs that differ (must be 0).
"""

import os
import warnings

import numpy as np
import torch

warnings.filterwarnings("ignore")
torch.backends.quantized.engine = "fbgemm"

import torch.ao.nn.intrinsic.quantized as nniq  # noqa: E402
import torch.ao.nn.quantized as nnq  # noqa: E402

OUT = {}
G = torch.Generator().manual_seed(2026)


def put(case, **fields):
    for k, v in fields.items():
        OUT[f"{case}.{k}"] = np.asarray(v.detach().numpy() if torch.is_tensor(v) else v)


def randn(*shape, scale=1.0, shift=0.0):
    return torch.randn(*shape, generator=G) * scale + shift


def quantize_cases():
    for i, (shape, s, z) in enumerate([((3, 5, 17), 0.05, 60), ((257,), 0.013, 0),
                                       ((4, 9), 1e-3, 255), ((2, 33), 0.1, 128)]):
        x = randn(*shape, scale=2.0)
        x.view(-1)[:3] = torch.tensor([s * 2.5, -s * 0.5, s * 1e6])  # ties and saturation
        q = torch.quantize_per_tensor(x, s, z, torch.quint8)
        put(f"quant{i}", x=x, scale=s, zp=z, q=q.int_repr(), deq=q.dequantize())
    w = randn(6, 4, 3, scale=0.3)
    amax = w.abs().reshape(6, -1).max(1).values
    s = amax / 127.5
    q = torch.quantize_per_channel(w, s.double(), torch.zeros(6, dtype=torch.long), 0,
                                   torch.qint8)
    put("perchan", w=w, q=q.int_repr(), scale=q.q_per_channel_scales().float())


def dynamic_linear_cases():
    shapes = [(1, 784, 40), (32, 256, 10), (3, 1100, 12), (2, 5, 64, 48)]
    for i, shape in enumerate(shapes):
        *lead, k, n = shape
        lin = torch.nn.Linear(k, n)
        x = randn(*lead, k, scale=1.5, shift=0.2 * i)
        qm = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(lin),
                                                    {torch.nn.Linear}, dtype=torch.qint8)
        wq = qm[0].weight()
        put(f"dynlin{i}", x=x, bias=lin.bias, wq=wq.int_repr(),
            wscale=np.float32(wq.q_scale()), y=qm(x))


def _perchannel(w):
    o = w.shape[0]
    s = (w.abs().reshape(o, -1).max(1).values / 127.5).clamp_min(2 ** -23)
    return torch.quantize_per_channel(w, s.double(), torch.zeros(o, dtype=torch.long), 0,
                                      torch.qint8), s


def static_cases():
    convs = [(3, 16, 3, 1, 1, 1, 1, False), (16, 32, 3, 2, 1, 1, 1, True),
             (8, 8, 3, 1, 1, 1, 8, True), (8, 12, 3, 1, 2, 2, 4, False),
             (600, 4, 1, 1, 0, 1, 1, False)]
    sizes = [(9, 11), (9, 11), (9, 11), (9, 11), (3, 4)]
    for i, (cin, o, k, st, pad, dil, groups, relu) in enumerate(convs):
        q = torch.quantize_per_tensor(randn(2, cin, *sizes[i], scale=2.0), 0.05, 60,
                                      torch.quint8)
        wq, s = _perchannel(randn(o, cin // groups, k, k, scale=0.2))
        m = (nniq.ConvReLU2d if relu else nnq.Conv2d)(cin, o, k, stride=st, padding=pad,
                                                       dilation=dil, groups=groups)
        b = randn(o, scale=0.1)
        m.set_weight_bias(wq, b)
        m.scale, m.zero_point = 0.07, 50
        put(f"conv{i}", q=q.int_repr(), s_in=0.05, zp_in=60, wq=wq.int_repr(), wscale=s,
            bias=b, s_out=0.07, zp_out=50, stride=st, pad=pad, dil=dil, groups=groups,
            relu=relu, y=m(q).int_repr())
    for i, relu in enumerate((False, True)):
        q = torch.quantize_per_tensor(randn(5, 700, scale=2.0), 0.04, 70, torch.quint8)
        wq, s = _perchannel(randn(20, 700, scale=0.1))
        m = (nniq.LinearReLU if relu else nnq.Linear)(700, 20)
        b = randn(20, scale=0.1)
        m.set_weight_bias(wq, b)
        m.scale, m.zero_point = 0.09, 40
        put(f"qlinear{i}", q=q.int_repr(), s_in=0.04, zp_in=70, wq=wq.int_repr(), wscale=s,
            bias=b, s_out=0.09, zp_out=40, relu=relu, y=m(q).int_repr())


def elementwise_cases():
    # sizes that are multiples of 128: torch's vectorized loop covers every element
    a = torch.quantize_per_tensor(randn(4, 8, 32, scale=2.0), 0.04, 70, torch.quint8)
    b = torch.quantize_per_tensor(randn(4, 8, 32, scale=2.0), 0.06, 30, torch.quint8)
    put("ew", a=a.int_repr(), b=b.int_repr(), sa=0.04, za=70, sb=0.06, zb=30, so=0.08, zo=64)
    for name in ("add", "add_relu", "mul", "mul_relu"):
        put(f"ew_{name}", y=getattr(torch.ops.quantized, name)(a, b, 0.08, 64).int_repr())
    put("ew_cat", y=torch.ops.quantized.cat([a, b], 1, 0.05, 66).int_repr())


def rnn_cases():
    for kind, cls in (("lstm", torch.nn.LSTM), ("gru", torch.nn.GRU)):
        torch.manual_seed(7)
        m = torch.nn.Sequential(cls(16, 24, num_layers=2, bidirectional=True,
                                    batch_first=True))
        qm = torch.ao.quantization.quantize_dynamic(m, {cls}, dtype=torch.qint8)
        x = randn(3, 10, 16)
        wb = qm[0]._weight_bias()
        fields = {}
        for layer in range(2):
            for d in range(2):
                suf = f"_l{layer}" + ("_reverse" if d else "")
                for kk in ("ih", "hh"):
                    w = wb["weight"][f"weight_{kk}{suf}"]
                    fields[f"w_{kk}{suf}"] = w.int_repr()
                    fields[f"s_{kk}{suf}"] = np.float32(w.q_scale())
                    fields[f"b_{kk}{suf}"] = wb["bias"][f"bias_{kk}{suf}"]
        put(kind, x=x, y=qm(x)[0], **fields)


def main():
    quantize_cases()
    dynamic_linear_cases()
    static_cases()
    elementwise_cases()
    rnn_cases()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.npz")
    np.savez_compressed(path, **OUT)
    print(f"wrote {path}: {len(OUT)} arrays, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
