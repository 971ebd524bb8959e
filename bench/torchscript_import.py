"""TorchScript import benchmark (not a test): `python bench/torchscript_import.py [runs]`.

For each suite-B model, scripted and traced and saved with torch.jit.save, the wall time of
a fresh process that imports the archive with ember (`ember convert`'s work without writing:
`ember.load_torchscript`, torch blocked) beside a fresh process that runs `torch.jit.load`
(import torch included), median of runs (default 3). Also the in-process time of each, after
its imports. ember's parse cache is warm after the first process, as on a user's machine.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

EMBER = """
import importlib.abc, sys, time
t0 = time.perf_counter()
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError(name)
sys.meta_path.insert(0, Block())
import ember
from ember.torchscript.load import load_torchscript
t1 = time.perf_counter()
load_torchscript(sys.argv[1])
t2 = time.perf_counter()
print(t2 - t1)
"""
TORCH = """
import sys, time
t0 = time.perf_counter()
import torch
t1 = time.perf_counter()
torch.jit.load(sys.argv[1])
t2 = time.perf_counter()
print(t2 - t1)
"""


def _time(code, path):
    import time
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
    wall = time.perf_counter() - t0
    if r.returncode:
        raise RuntimeError(r.stderr[-2000:])
    return wall, float(r.stdout.strip().splitlines()[-1])


def main(runs: int = 3):
    import torch
    sys.path.insert(0, ROOT)
    from tests.models.bench_models import MODELS, make_input, make_model
    folder = tempfile.mkdtemp(prefix="ember-ts-bench-")
    rows = []
    for name in MODELS:
        m = make_model(name)
        for how in ("scripted", "traced"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                s = torch.jit.script(m) if how == "scripted" else \
                    torch.jit.trace(m, (make_input(name, 1),), check_trace=False)
            path = os.path.join(folder, f"{name}.{how}.pt")
            torch.jit.save(s, path)
            try:
                _time(EMBER, path)  # warm the parse cache once, as a user's second run
            except RuntimeError as e:
                rows.append((name, how, None, None, None, None, str(e).splitlines()[-1]))
                continue
            e = [_time(EMBER, path) for _ in range(runs)]
            t = [_time(TORCH, path) for _ in range(runs)]
            rows.append((name, how, statistics.median(w for w, _ in e),
                         statistics.median(i for _, i in e),
                         statistics.median(w for w, _ in t),
                         statistics.median(i for _, i in t), ""))
    print(f"{'model':12s} {'kind':8s} {'ember process':>14s} {'(import)':>9s} "
          f"{'torch process':>14s} {'(jit.load)':>10s} {'ratio':>6s}")
    for name, how, ew, ei, tw, ti, err in rows:
        if ew is None:
            print(f"{name:12s} {how:8s} refused: {err[:80]}")
            continue
        print(f"{name:12s} {how:8s} {ew:13.3f}s {ei:8.3f}s {tw:13.3f}s {ti:9.3f}s "
              f"{ew / tw:6.2f}")
    print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
