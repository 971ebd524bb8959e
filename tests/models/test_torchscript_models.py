"""Every bench and zoo model, scripted and traced by torch, saved as .pt (torch.jit.save) and
.ptl (_save_for_lite_interpreter), converted by ember in a process where torch cannot be
imported, saved as an ember artifact and run by ember.mobile: outputs within 1e-4 of torch's.

The archives that use operators ember lacks must be refused with a CompileError naming them
(REFUSED); nothing else may fail."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from . import bench_models as B  # noqa: E402
from . import zoo as Z  # noqa: E402

TOL = 1e-4
BATCH = 2
MODELS = [("bench", n) for n in B.MODELS] + [("zoo", n) for n in Z.ZOO]
CASES = [(kind, name, how, ext) for kind, name in MODELS for how in ("scripted", "traced")
         for ext in ("pt", "ptl")]

REFUSED: dict = {}
"""(kind, name, how) -> the operator a refusal must name. None today: scripted torch.nn code
keeps MultiheadAttention's and TransformerEncoderLayer's fast paths and every
F.interpolate mode, and the prelude's constants (fast path off, no grad, no autocast) decide
those branches at compile time."""
TORCH_CANNOT = {("zoo", "siamese", "scripted"): "torch.jit.script fails on this model"}

_RUNNER = textwrap.dedent("""
    import importlib.abc, json, sys, time, traceback
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                raise ImportError(name + " is blocked")
    sys.meta_path.insert(0, Block())
    import numpy as np
    import ember
    from ember import mobile
    from ember.errors import CompileError
    folder = sys.argv[1]
    cases = json.load(open(folder + "/cases.json"))
    out = {}
    for key in cases:
        try:
            t0 = time.perf_counter()
            sm = ember.load_torchscript(f"{folder}/{key}.archive")
            sm.save(f"{folder}/{key}.ember")
            seconds = time.perf_counter() - t0
            m = mobile.load(f"{folder}/{key}.ember")
            n = len([f for f in cases[key]])
            args = [np.load(f"{folder}/{key}.in{i}.npy") for i in range(cases[key]["inputs"])]
            got = m(*args)
            flat = []
            def walk(v):
                if isinstance(v, (tuple, list)):
                    for x in v:
                        walk(x)
                else:
                    flat.append(np.asarray(v))
            walk(got)
            want = [np.load(f"{folder}/{key}.out{i}.npy") for i in range(cases[key]["outputs"])]
            if len(flat) != len(want):
                out[key] = {"error": f"{len(flat)} outputs, torch has {len(want)}"}
                continue
            err = max((float(np.max(np.abs(g.astype(np.float64) - w))) if w.size else 0.0)
                      for g, w in zip(flat, want))
            shapes = all(g.shape == w.shape for g, w in zip(flat, want))
            out[key] = {"err": err, "shapes": shapes, "seconds": seconds,
                        "torch": "torch" in sys.modules}
        except CompileError as e:
            out[key] = {"refused": str(e), "unsupported": [u[0] for u in
                                                           getattr(e, "unsupported", [])]}
        except Exception as e:
            out[key] = {"error": f"{type(e).__name__}: {e}",
                        "trace": traceback.format_exc()[-2000:]}
    json.dump(out, open(folder + "/results.json", "w"))
""")


def _key(kind, name, how, ext):
    return f"{kind}-{name}-{how}-{ext}"


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flat(o)]
    return [out.detach().numpy() if isinstance(out, torch.Tensor) else np.asarray(out)]


def _archives(folder):
    cases = {}
    for kind, name in MODELS:
        model = B.make_model(name) if kind == "bench" else Z.make(name)
        inputs = (B.make_input(name, BATCH),) if kind == "bench" else Z.inputs(name, BATCH)
        with torch.no_grad():
            want = _flat(model(*inputs))
        for how in ("scripted", "traced"):
            if (kind, name, how) in TORCH_CANNOT:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = torch.jit.script(model) if how == "scripted" else \
                    torch.jit.trace(model, inputs, check_trace=False)
                for ext in ("pt", "ptl"):
                    key = _key(kind, name, how, ext)
                    path = os.path.join(folder, key + ".archive")
                    if ext == "pt":
                        torch.jit.save(m, path)
                    else:
                        m._save_for_lite_interpreter(path)
                    for i, x in enumerate(inputs):
                        np.save(os.path.join(folder, f"{key}.in{i}.npy"), x.numpy())
                    for i, w in enumerate(want):
                        np.save(os.path.join(folder, f"{key}.out{i}.npy"), w)
                    cases[key] = {"inputs": len(inputs), "outputs": len(want)}
    with open(os.path.join(folder, "cases.json"), "w") as fh:
        json.dump(cases, fh)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("torchscript_models"))
    _archives(folder)
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", _RUNNER, folder], capture_output=True,
                       text=True, env=env, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    with open(os.path.join(folder, "results.json")) as fh:
        return json.load(fh)


@pytest.mark.parametrize("kind, name, how, ext", CASES,
                         ids=[_key(*c) for c in CASES])
def test_archive_converts_and_matches_torch(results, kind, name, how, ext):
    if (kind, name, how) in TORCH_CANNOT:
        pytest.skip(TORCH_CANNOT[(kind, name, how)])
    r = results[_key(kind, name, how, ext)]
    assert "error" not in r, r.get("trace", r["error"])
    refused = REFUSED.get((kind, name, how))
    if refused is not None:
        assert "refused" in r, f"expected a refusal naming {refused}, got {r}"
        assert refused in r["unsupported"], r["refused"][:2000]
        return
    assert "refused" not in r, r["refused"][:3000]
    assert not r["torch"]
    assert r["shapes"]
    assert r["err"] <= TOL, r
