"""Big-model benchmark (not a test): `python bench/big_models.py [--sizes 1M,10M,100M,512MiB,300M]
[--families mlp,transformer] [--warm] [--repeat N] [--json rows.jsonl]`.

For MLPs (Linear + ReLU stacks) and transformer encoder stacks (torch.nn.TransformerEncoder)
of about 1M, 10M, 100M and 300M parameters, plus the 512 MiB MLP of issue 18 (8 layers of
4096 x 4096 Linear), measures against torch.jit and numpy:

  script  ember.script(m)                  | torch.jit.script(m) + torch.jit.freeze
  save    ScriptModule.save(path)          | torch.jit.save(scripted)   | numpy.savez (weights)
          (ember's save does not fsync, as the others; save(path, durable=True), which
          also fsyncs the file and its directory, is timed beside it)
  load    ember.mobile.load(path)          | torch.jit.load             | numpy.load + every array
          (the JSON rows also hold each load's CPU time, "load cpu": on a shared machine the
          wall time is the CPU time stretched by how busy the other cores are)
  call    the first call after load        | the first call after load
  rss     peak RSS of load + first call minus the RSS after the imports (MiB), and the
          peak itself (absolute)

torch saves and loads the scripted module, not the frozen one: torch.jit.load of a frozen
TransformerEncoder took 7 s for a 4 MB model here (57 s and 3.7 GB at 10M parameters).
Load and first call run in a fresh process each (imports excluded from times; the file is
in the page cache, just written). Script runs after a warm-up that scripts a small model of
the same family with both compilers, so both times are the weight-dependent part plus one
compile. Each row also shows time per byte of weights (ns/B): flat from 10M on means the
cost grows with the bytes and nothing else. --warm touches and frees the weights' size of
memory and page cache before each timed script and save: without it, whichever step first
touches memory new to the process pays for it (a copy into fresh memory, a write into
fresh page cache), which on a VM can cost more than the copy itself.

Memory: the parent holds the torch model (whose memory ember's frozen arrays share,
copy-on-write), torch's frozen module and the npz state (.numpy() makes torch copy its
COW buffers: about 2-3x the weights); the 300M models need about 4 GB. Run them once.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

SIZES = {  # name -> (mlp (layers, width), transformer (layers, d_model, heads))
    "1M": ((4, 512), (5, 128, 4)),
    "10M": ((4, 1600), (12, 256, 4)),
    "100M": ((8, 3584), (14, 768, 12)),
    "512MiB": ((8, 4096), None),
    "300M": ((8, 6144), (24, 1024, 16)),
}
SEQ = 16


def make(family: str, spec):
    import torch

    torch.manual_seed(0)
    if family == "mlp":
        layers, width = spec
        mods = []
        for _ in range(layers):
            mods += [torch.nn.Linear(width, width), torch.nn.ReLU()]
        return torch.nn.Sequential(*mods).eval(), (1, width)
    layers, d, heads = spec

    def layer():
        return torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0,
                                                batch_first=True)
    enc = torch.nn.TransformerEncoder(layer(), layers, enable_nested_tensor=False)
    for i in range(layers):  # the stack deep-copies one layer: give each its own weights,
        enc.layers[i] = layer()  # or savers that share equal tensors store one layer
    return enc.eval(), (1, SEQ, d)


def weight_bytes(model) -> int:
    seen, total = set(), 0
    for t in list(model.parameters()) + list(model.buffers()):
        if t.data_ptr() not in seen:
            seen.add(t.data_ptr())
            total += t.numel() * t.element_size()
    return total


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


# ----------------------------------------------------------------------------- child

CHILD = r"""
import json, os, resource, sys, time
kind, path, shape = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith(("VmHWM", "VmRSS")):
            yield line.split()[0][:-1], int(line.split()[1]) / 1024

import numpy as np
x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
if kind == "ember":
    from ember import mobile
    import ember.ops
    load, call = mobile.load, lambda m: m(x)
elif kind == "torch":
    import torch
    torch.set_grad_enabled(False)
    xt = torch.from_numpy(x)
    load, call = torch.jit.load, lambda m: m(xt)
else:
    def load(p):
        f = np.load(p)
        return {k: f[k] for k in f.files}
    call = None
base = dict(hwm())
c0 = time.process_time()
t0 = time.perf_counter()
m = load(path)
t1 = time.perf_counter()
c1 = time.process_time()
if call is not None:
    call(m)
t2 = time.perf_counter()
end = dict(hwm())
print(json.dumps({"load": t1 - t0, "load cpu": c1 - c0, "call": (t2 - t1) if call else None,
                  "rss": end["VmHWM"] - base["VmRSS"], "peak": end["VmHWM"]}))
"""


def child(kind: str, path: str, shape) -> dict:
    env = dict(os.environ)
    import ember
    src = os.path.dirname(os.path.dirname(os.path.abspath(ember.__file__)))
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"  # both sides single-threaded, as the shared anchors
    r = subprocess.run([sys.executable, "-c", CHILD, kind, path, json.dumps(list(shape))],
                       capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"{kind} child failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- parent


def warm_up(family: str) -> None:
    import ember
    import torch

    small = {"mlp": (2, 16), "transformer": (1, 16, 2)}[family]
    m, _ = make(family, small)
    ember.script(m)
    torch.jit.freeze(torch.jit.script(m))


def _durable_save(s, path) -> float:
    """The time of save(path, durable=True): the same atomic write plus the fsyncs that
    make it survive a power loss (torch.jit.save and numpy do neither)."""
    _, t = timed(lambda: s.save(path, durable=True))
    os.unlink(path)
    return t


def warm_memory(nbytes: int, tmp: str) -> None:
    """Touch and free nbytes of memory and of page cache, so the step timed next does not
    pay for memory the machine touches for the first time (on the VM this was measured on,
    first-touched memory cost 5-20 ns/B, several times a copy: whichever step came first,
    a copy into fresh memory or a write into fresh page cache, paid it)."""
    import numpy as np

    a = np.ones(nbytes // 8 + 1, np.float64)
    path = os.path.join(tmp, "warm")
    with open(path, "wb") as fh:
        fh.write(memoryview(a).cast("B"))
    del a
    os.unlink(path)


def children(kind: str, path: str, shape, repeat: int) -> dict:
    """Load and first call in `repeat` fresh processes: the median times, the largest RSS."""
    import statistics

    runs = [child(kind, path, shape) for _ in range(repeat)]
    out = {k: statistics.median(r[k] for r in runs) if runs[0][k] is not None else None
           for k in ("load", "load cpu", "call")}
    out.update({k: max(r[k] for r in runs) for k in ("rss", "peak")})
    return out


def measure(family: str, size: str, spec, tmp: str, warm: bool = False,
            repeat: int = 1) -> dict:
    import numpy as np
    import torch

    import ember

    model, shape = make(family, spec)
    nbytes = weight_bytes(model)
    params = sum(p.numel() for p in model.parameters())
    row = {"model": f"{family} {size}", "params": params, "bytes": nbytes}
    paths = {k: os.path.join(tmp, f"m.{k}") for k in ("ember", "torch", "npz")}
    warm_up(family)
    gc.collect()

    def prepare():
        if warm:
            warm_memory(nbytes, tmp)
    prepare()
    s, row["ember script"] = timed(lambda: ember.script(model))
    prepare()
    _, row["ember save"] = timed(lambda: s.save(paths["ember"]))
    prepare()
    row["ember save, durable"] = _durable_save(s, paths["ember"] + ".durable")
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    want = s(x)
    del s
    gc.collect()

    def jit():
        sm = torch.jit.script(model)
        return sm, torch.jit.freeze(sm)
    prepare()
    (sm, fm), row["torch script"] = timed(jit)
    prepare()
    _, row["torch save"] = timed(lambda: torch.jit.save(sm, paths["torch"]))
    with torch.no_grad():
        got = fm(torch.from_numpy(x)).numpy()
    row["max |ember - torch|"] = float(np.max(np.abs(got - want)))
    del fm, sm
    gc.collect()

    state = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    prepare()
    _, row["npz save"] = timed(lambda: np.savez(paths["npz"], **state))
    del state, model
    gc.collect()

    for kind, path in (("ember", paths["ember"]), ("torch", paths["torch"]),
                       ("npz", paths["npz"])):
        r = children(kind, path, shape, repeat)
        row[f"{kind} load"], row[f"{kind} call"] = r["load"], r["call"]
        row[f"{kind} load cpu"] = r["load cpu"]  # the CPU time: less noisy on a busy machine
        row[f"{kind} rss"], row[f"{kind} peak"] = r["rss"], r["peak"]
        os.unlink(path)
    return row


COLUMNS = [("script", "script"), ("save", "save"), ("load", "load"), ("call", "call")]


def show(rows) -> None:
    head = (f"{'model':16} {'params':>7} {'MiB':>7} | {'step':6} "
            f"{'ember s':>8} {'ns/B':>6} | {'torch s':>8} {'ns/B':>6} | {'npz s':>8} "
            f"{'ns/B':>6}")
    print(head)
    print("-" * len(head))
    for r in rows:
        mib = r["bytes"] / 2 ** 20
        first = True
        for step in ("script", "save", "load", "call"):
            cells = []
            for kind in ("ember", "torch", "npz"):
                v = r.get(f"{kind} {step}")
                cells.append(f"{'—':>8} {'':>6}" if v is None else
                             f"{v:8.3f} {v / r['bytes'] * 1e9:6.2f}")
            lead = (f"{r['model']:16} {r['params'] / 1e6:6.1f}M {mib:7.1f}" if first
                    else " " * 32)
            print(f"{lead} | {step:6} " + " | ".join(cells))
            first = False
        rss = " | ".join(f"{r[f'{k} rss']:8.0f} {r[f'{k} peak']:6.0f}"
                         for k in ("ember", "torch", "npz"))
        print(f"{'':32} | {'rss':6} {rss}   (MiB: load+call peak - RSS after import, peak)")
        print(f"{'':32} | ember save(durable=True): {r['ember save, durable']:.3f} s; "
              f"max |ember - torch| = {r['max |ember - torch|']:.2e}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1M,10M,100M,512MiB")
    ap.add_argument("--families", default="mlp,transformer")
    ap.add_argument("--json", help="append the rows to this file")
    ap.add_argument("--repeat", type=int, default=1,
                    help="load and call each artifact in this many fresh processes and "
                         "report the medians (the machine is shared and noisy)")
    ap.add_argument("--warm", action="store_true",
                    help="touch and free the weights' size of memory and page cache before "
                         "each timed script and save (see warm_memory)")
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("big_models: torch is not installed; skipped")
        return 0
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    rows = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("BIG_MODELS_DIR")) as tmp:
        for size in args.sizes.split(","):
            for family in args.families.split(","):
                spec = SIZES[size][0 if family == "mlp" else 1]
                if spec is None:
                    continue
                row = measure(family, size, spec, tmp, args.warm, args.repeat)
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.json:
                    with open(args.json, "a") as fh:
                        fh.write(json.dumps(row) + "\n")
    show(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
