"""One training step (forward, loss, backward, SGD update) of the bench models at batch 32:
ember.train_step on the lite runtime beside torch eager, 1 thread, median of runs.
A benchmark, not a test: it prints numbers and asserts nothing about time. Besides wall
time it reports the process's CPU time per step (its ratio is steadier on a shared machine:
other processes' time slices do not count).

    OMP_NUM_THREADS=1 PYTHONPATH=src python bench/train.py [--repeat N] [--batch B]
"""

import argparse
import copy
import os
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


def run(name, batch, repeat):
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

    step(x, t)
    torch_step()
    (te, ce), (tt_, ct) = median_time(lambda: step(x, t), repeat), \
        median_time(torch_step, repeat)
    return f"{name:12s} ember {te * 1e3:9.2f} ms   torch eager {tt_ * 1e3:9.2f} ms   " \
           f"ratio {te / tt_:5.2f}x   cpu {ce * 1e3:8.2f} / {ct * 1e3:8.2f} ms " \
           f"ratio {ce / ct:5.2f}x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--batch", type=int, default=32)
    args = ap.parse_args()
    print(f"training step, batch {args.batch}, median of {args.repeat}, 1 thread")
    for name in MODELS:
        print(run(name, args.batch, args.repeat), flush=True)


if __name__ == "__main__":
    main()
