"""int8 vs fp32 for the bench models (MLP, LSTM, CNN of tests/models/bench_models.py):
artifact sizes, error against fp32 beside torch.ao's, lite-runtime speed (save ->
ember.mobile.load), and exactness against torch.ao's quantize_dynamic (fbgemm).

    PYTHONPATH=src python bench/quant.py [--repeat N]
"""

import argparse
import os
import sys
import tempfile
import time
import warnings

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one BLAS thread, as the shared harness runs

import numpy as np  # noqa: E402
import torch

warnings.filterwarnings("ignore")
torch.backends.quantized.engine = "fbgemm"
torch.set_num_threads(1)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "models"))

import bench_models  # noqa: E402

import ember  # noqa: E402

MODELS = {"mlp": ("MLP", (784,)), "lstm": ("LSTMHead", (32, 64)), "cnn": ("SmallCNN", (3, 32, 32))}


def make(name, seed=0):
    torch.manual_seed(seed)
    model = getattr(bench_models, MODELS[name][0])().eval()
    gen = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                c = m.num_features
                m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
                m.weight.data.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
                m.bias.data.copy_(torch.randn(c, generator=gen) * 0.1)
    return model


def saved(sm, folder, tag):
    path = os.path.join(folder, tag + ".ember")
    sm.save(path)
    return path, os.path.getsize(path)


def _once(fn, x):
    n, t0 = 0, time.perf_counter()
    while True:
        fn(x)
        n += 1
        dt = time.perf_counter() - t0
        if dt > 0.05:
            return dt / n


def best_times(fns, x, repeat):
    """The best time per call of each of fns, measured in alternating rounds (the machine
    is shared: interleaving keeps a slow spell from favouring one side)."""
    for fn in fns:
        fn(x)
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], _once(fn, x))
    return best


def torch_int8(model, mode, calib=None):
    q = torch.ao.quantization
    layers = {torch.nn.Linear, torch.nn.LSTM}
    if mode == "dynamic":
        return q.quantize_dynamic(model, layers, dtype=torch.qint8)
    if mode == "static":
        return torch_static_cnn(model, calib)
    return None


class _Stubbed(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.quant, self.model = torch.ao.quantization.QuantStub(), model
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.model(self.quant(x)))


def torch_static_cnn(model, calib):
    """torch.ao eager PTQ of SmallCNN (fbgemm qconfig, conv-bn-relu fused)."""
    import copy
    q = torch.ao.quantization
    m = copy.deepcopy(model).eval()
    q.fuse_modules(m, [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"],
                       ["conv3", "bn3", "relu3"]], inplace=True)
    w = _Stubbed(m).eval()
    w.qconfig = q.get_default_qconfig("fbgemm")
    q.prepare(w, inplace=True)
    with torch.no_grad():
        for b in calib:
            w(torch.from_numpy(b))
    return q.convert(w)


def run(name, mode, per_channel, repeat, folder):
    model = make(name)
    shape = MODELS[name][1]
    fp32 = ember.script(model)
    cgen = torch.Generator().manual_seed(7)
    calib = [torch.randn((8,) + shape, generator=cgen).numpy() for _ in range(8)] \
        if mode == "static" else None
    q8 = ember.quantize(model, mode, calibration=calib, per_channel=per_channel)
    p32, s32 = saved(fp32, folder, f"{name}-fp32")
    p8, s8 = saved(q8, folder, f"{name}-{mode}")
    l32, l8 = ember.mobile.load(p32), ember.mobile.load(p8)
    row = {"model": name, "mode": mode + ("/pc" if per_channel else "/pt"),
           "size fp32": s32, "size int8": s8, "shrink": s32 / s8}
    gen = torch.Generator().manual_seed(123)
    x32 = torch.randn((32,) + shape, generator=gen)
    ref = model(x32).detach().numpy()
    y8 = l8(x32.numpy())
    row["err ember"] = float(np.abs(y8 - ref).max())
    tq = torch_int8(model, mode, calib)
    if mode == "static":
        yt = tq(x32).detach().numpy()
        row["err torch"] = float(np.abs(yt - ref).max())
        # torch.ao's own int8 model, converted by ember.script: its outputs must be torch's
        path, _ = saved(ember.script(tq), folder, f"{name}-ao")
        ya = ember.mobile.load(path)(x32.numpy())
        row["differ"] = f"ao: {int(np.count_nonzero(ya != yt))}/{yt.size}"
    elif tq is not None and not per_channel:
        yt = tq(x32).detach().numpy()
        row["err torch"] = float(np.abs(yt - ref).max())
        row["differ"] = f"{int(np.count_nonzero(yt != y8))}/{yt.size}"
    elif tq is not None:
        qc = torch.ao.quantization.per_channel_dynamic_qconfig
        tq = torch.ao.quantization.quantize_dynamic(
            model, {torch.nn.Linear: qc, torch.nn.LSTM: qc}, dtype=torch.qint8)
        yt = tq(x32).detach().numpy()
        row["err torch"] = float(np.abs(yt - ref).max())
        row["differ"] = f"{int(np.count_nonzero(yt != y8))}/{yt.size}"
    for b in (1, 32):
        x = x32[:b].numpy()
        t32, t8 = best_times([l32, l8], x, repeat)
        row[f"b{b} fp32 ms"] = t32 * 1e3
        row[f"b{b} int8 ms"] = t8 * 1e3
        row[f"b{b} speedup"] = t32 / t8
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, mode, pc in [("mlp", "dynamic", False), ("mlp", "dynamic", True),
                               ("lstm", "dynamic", False), ("lstm", "dynamic", True),
                               ("cnn", "dynamic", True), ("cnn", "weight_only", True),
                               ("cnn", "static", True),
                               ("mlp", "weight_only", True), ("lstm", "weight_only", True)]:
            rows.append(run(name, mode, pc, args.repeat, folder))
    keys = list(rows[0].keys()) + [k for r in rows for k in r if k not in rows[0]]
    keys = list(dict.fromkeys(keys))
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        cells = []
        for k in keys:
            v = r.get(k, "")
            cells.append(f"{v:.3g}" if isinstance(v, float) else str(v))
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
