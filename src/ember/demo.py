"""`ember demo`: script, save, load and run the bundled examples on the lite runtime.

1. A control-flow function (recursion in a nested def, a memo dict, try/except, f-string
   format specs) is scripted, saved, loaded and run; its result is compared with CPython's.
2. A small CNN written with ember.nn runs eagerly on numpy, is scripted and frozen, saved,
   then loaded and run in a fresh process that cannot import lark, llvmlite or torch —
   what a device with only numpy runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

_LITE = """
import sys, time, importlib.abc
BLOCKED = ("lark", "llvmlite", "torch", "ember.frontend", "ember.ir", "ember.passes",
           "ember.interpreter", "ember.api", "ember.nn")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ImportError(name + " is not on this device")
sys.meta_path.insert(0, Block())
t0 = time.perf_counter()
import numpy as np
from ember import mobile
t1 = time.perf_counter()
m = mobile.load(sys.argv[1])
t2 = time.perf_counter()
x = np.load(sys.argv[2])
y = m(x)
t3 = time.perf_counter()
for _ in range(20):
    m(x)
t4 = time.perf_counter()
np.save(sys.argv[3], y)
print(f"{(t1 - t0) * 1e3:.1f} {(t2 - t1) * 1e3:.1f} {(t3 - t2) * 1e3:.2f} "
      f"{(t4 - t3) / 20 * 1e3:.3f}")
"""


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def _program_part(tmp: str) -> bool:
    import ember
    from ember import mobile
    from ember.examples.programs import collatz_report

    print("== 1. a control-flow function: ember.examples.programs.collatz_report")
    t0 = time.perf_counter()
    f = ember.script(collatz_report)
    t1 = time.perf_counter()
    path = os.path.join(tmp, "collatz.ember")
    f.save(path)
    loaded = mobile.load(path)
    t2 = time.perf_counter()
    want = collatz_report(20000)
    t3 = time.perf_counter()
    got = loaded(20000)
    t4 = time.perf_counter()
    print(f"   script {_ms(t1 - t0)} (the first compile loads the compiler), save + load "
          f"{_ms(t2 - t1)}, "
          f"artifact {os.path.getsize(path):,} bytes")
    print(f"   CPython:      {want!r}  ({_ms(t3 - t2)})")
    print(f"   lite runtime: {got!r}  ({_ms(t4 - t3)})")
    return got == want


def _model_part(tmp: str) -> bool:
    import ember
    from ember.examples.models import tiny_net

    print("== 2. a CNN written with ember.nn: ember.examples.models.TinyNet")
    net = tiny_net()
    x = np.random.default_rng(1).standard_normal((4, 3, 32, 32)).astype(np.float32)
    t0 = time.perf_counter()
    eager = net(x)
    t1 = time.perf_counter()
    scripted = ember.freeze(net)
    t2 = time.perf_counter()
    path = os.path.join(tmp, "tinynet.ember")
    scripted.save(path)
    raw = sum(w.nbytes for w in net.parameters())
    print(f"   eager (numpy) {_ms(t1 - t0)}; ember.freeze {_ms(t2 - t1)}; artifact "
          f"{os.path.getsize(path):,} bytes for {raw:,} bytes of weights")
    np.save(os.path.join(tmp, "x.npy"), x)
    out = subprocess.run([sys.executable, "-c", _LITE, path, os.path.join(tmp, "x.npy"),
                          os.path.join(tmp, "y.npy")], capture_output=True, text=True,
                         env=_env())
    if out.returncode != 0:
        print("   the lite runtime failed:\n" + out.stderr)
        return False
    imp, load, first, steady = out.stdout.split()
    y = np.load(os.path.join(tmp, "y.npy"))
    diff = float(np.abs(y - eager).max())
    print(f"   fresh process, numpy + ember.mobile only: import {imp} ms, load {load} ms, "
          f"first call {first} ms, then {steady} ms per call (batch {x.shape[0]})")
    print(f"   predicted classes {y.argmax(1).tolist()}; max |lite - eager| = {diff:.2e}")
    return diff < 1e-4


def _env() -> dict:
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.environ.get("PYTHONPATH", "")
    return dict(os.environ, PYTHONPATH=src + (os.pathsep + path if path else ""))


def run_demo() -> int:
    with tempfile.TemporaryDirectory(prefix="ember-demo-") as tmp:
        ok = _program_part(tmp)
        print()
        ok = _model_part(tmp) and ok
    print()
    print("demo " + ("passed: the lite runtime matches CPython and eager numpy" if ok
                     else "FAILED"))
    return 0 if ok else 1
