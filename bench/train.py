"""One training step (forward, loss, backward, SGD update) of the bench models at batch 32:
ember.train_step on the lite runtime beside torch eager, 1 thread, median of runs.
A benchmark, not a test: it prints numbers and asserts nothing about time. Besides wall
time it reports the process's CPU time per step (its ratio is steadier on a shared machine:
other processes' time slices do not count).

--memory measures instead each engine's peak memory during steps, in a fresh process per
model, engine and mode: the resident high-water mark (Linux's VmHWM, reset through
/proc/self/clear_refs) over 3 steps, less the resident size before them. "cold" starts
from the model and its inputs (gradients, optimizer state and workspaces count), "warm"
after a first step (what the engine keeps between steps does not; freed memory the
allocator kept from the first step is reused without showing).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/train.py [--repeat N] [--batch B] [--memory]
"""

import argparse
import copy
import os
import subprocess
import sys
import time

import numpy as np
import torch

torch.set_num_threads(1)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "models"))

from bench_models import MODELS, make_model  # noqa: E402

import ember  # noqa: E402
import ember.optim  # noqa: E402


def median_time(fn, repeat):
    """(median wall time, median process CPU time) of fn."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return float(np.median(wall)), float(np.median(cpu))


def steps(name, batch):
    """(ember step, torch step) for a model at batch `batch`, or why ember cannot train it."""
    model = make_model(name)
    ref = copy.deepcopy(model).train()
    try:
        step = ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(1e-4, 0.9))
    except ember.errors.CompileError as e:
        return f"{name:12s} not compiled: {str(e).splitlines()[0]}"
    shape = MODELS[name][1]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((batch,) + shape).astype(np.float32)
    with torch.no_grad():
        out = ref(torch.tensor(x))
    # class indices for dim 1 of the output (per position for spatial outputs)
    t = rng.integers(0, out.shape[1], (batch,) + tuple(out.shape[2:]))
    opt = torch.optim.SGD(ref.parameters(), lr=1e-4, momentum=0.9)
    tx, tt = torch.tensor(x), torch.tensor(t)

    def torch_step():
        opt.zero_grad()
        torch.nn.functional.cross_entropy(ref(tx), tt).backward()
        opt.step()

    return (lambda: step(x, t)), torch_step


def run(name, batch, repeat):
    made = steps(name, batch)
    if isinstance(made, str):
        return made
    ember_step, torch_step = made
    ember_step()
    torch_step()
    (te, ce), (tt_, ct) = median_time(ember_step, repeat), median_time(torch_step, repeat)
    return f"{name:12s} ember {te * 1e3:9.2f} ms   torch eager {tt_ * 1e3:9.2f} ms   " \
           f"ratio {te / tt_:5.2f}x   cpu {ce * 1e3:8.2f} / {ct * 1e3:8.2f} ms " \
           f"ratio {ce / ct:5.2f}x"


def _status_kb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def peak(name, batch, engine, warm):
    """Print the peak resident memory (MB) of 3 steps beyond the resident size before
    them (after a first step when `warm`)."""
    made = steps(name, batch)
    if isinstance(made, str):
        print("-")
        return
    fn = made[0] if engine == "ember" else made[1]
    if warm:
        fn()
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")  # reset the high-water mark to the current resident size
    before = _status_kb("VmRSS")
    for _ in range(3):
        fn()
    print(f"{(_status_kb('VmHWM') - before) / 1024:.1f}")


def memory(batch):
    print(f"training step, batch {batch}: peak resident memory of 3 steps beyond the resident "
          "size before them (cold: from the model and inputs; warm: after a first step), a "
          "fresh process per model, engine and mode")
    for name in MODELS:
        got = []
        for engine in ("ember", "torch"):
            for mode in ("cold", "warm"):
                r = subprocess.run([sys.executable, __file__, "--peak", name, engine, mode,
                                    "--batch", str(batch)], capture_output=True, text=True)
                got.append(r.stdout.strip().splitlines()[-1] if r.returncode == 0 else "failed")
        print(f"{name:12s} ember {got[0]:>7s} / {got[1]:>7s} MB   torch eager {got[2]:>7s} / "
              f"{got[3]:>7s} MB (cold / warm)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--memory", action="store_true")
    ap.add_argument("--peak", nargs=3, metavar=("MODEL", "ENGINE", "MODE"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peak:
        return peak(args.peak[0], args.batch, args.peak[1], args.peak[2] == "warm")
    if args.memory:
        return memory(args.batch)
    print(f"training step, batch {args.batch}, median of {args.repeat}, 1 thread")
    for name in MODELS:
        print(run(name, args.batch, args.repeat), flush=True)


if __name__ == "__main__":
    main()
