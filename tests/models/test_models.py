"""Real models: scripted from their torch definitions, saved, and loaded with ember.mobile in
a process where torch cannot be imported; outputs within 1e-4 of torch eager at batch 1
and 32, scripted and frozen."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402

from . import bench_models as B  # noqa: E402
from . import zoo as Z  # noqa: E402

TOL = 1e-4
BATCHES = (1, 32)
MODELS = [("bench", n) for n in B.MODELS] + [("zoo", n) for n in Z.ZOO]


def _model(kind, name):
    return B.make_model(name) if kind == "bench" else Z.make(name)


def _inputs(kind, name, batch):
    return (B.make_input(name, batch),) if kind == "bench" else Z.inputs(name, batch)


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flat(o)]
    return [out.detach().numpy() if isinstance(out, torch.Tensor) else np.asarray(out)]


def _check(got, want, what):
    got, want = _flat(got), _flat(want)
    assert len(got) == len(want), what
    for g, w in zip(got, want):
        assert g.shape == w.shape, f"{what}: shape {g.shape} vs torch {w.shape}"
        assert g.dtype == w.dtype, f"{what}: dtype {g.dtype} vs torch {w.dtype}"
        err = float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max()) if g.size else 0
        assert err <= TOL, f"{what}: max |ember - torch| = {err:.2e}"


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """name -> (artifact paths, input and expected-output .npy files) filled by the tests."""
    return {"dir": tmp_path_factory.mktemp("models"), "cases": []}


@pytest.mark.parametrize("kind, name", MODELS, ids=[n for _, n in MODELS])
def test_model_matches_torch(kind, name, artifacts):
    model = _model(kind, name)
    scripted = ember.script(model)
    frozen = ember.freeze(model)
    for batch in BATCHES:
        args = _inputs(kind, name, batch)
        with torch.no_grad():
            want = model(*args)
        np_args = [a.numpy() for a in args]
        _check(scripted(*np_args), want, f"{name} scripted, batch {batch}")
        _check(frozen(*np_args), want, f"{name} frozen, batch {batch}")
        d = artifacts["dir"]
        for label, sm in (("scripted", scripted), ("frozen", frozen)):
            path = d / f"{name}_{label}.ember"
            if not path.exists():
                sm.save(path)
            stem = d / f"{name}_b{batch}"
            for i, a in enumerate(np_args):
                np.save(f"{stem}_in{i}.npy", a)
            for i, w in enumerate(_flat(want)):
                np.save(f"{stem}_out{i}.npy", w)
            artifacts["cases"].append((str(path), str(stem), len(np_args), len(_flat(want))))


_LITE = """
import sys, json, importlib.abc
import numpy as np
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith(("torch.", "lark", "llvmlite", "ember.frontend",
                                               "ember.api", "ember.nn", "ember.ir")):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
from ember import mobile
worst = {}
for path, stem, n_in, n_out in json.load(open(sys.argv[1])):
    m = mobile.load(path)
    out = m(*[np.load(f"{stem}_in{i}.npy") for i in range(n_in)])
    outs = list(out) if isinstance(out, tuple) else [out]
    assert len(outs) == n_out, (path, len(outs))
    for i, o in enumerate(outs):
        w = np.load(f"{stem}_out{i}.npy")
        assert o.shape == w.shape and o.dtype == w.dtype, (path, o.shape, w.shape, o.dtype)
        err = float(np.abs(o.astype(np.float64) - w).max()) if o.size else 0.0
        worst[path] = max(worst.get(path, 0.0), err)
leaked = [k for k in sys.modules if k == "torch" or k.startswith("torch.")]
print(json.dumps({"worst": worst, "leaked": leaked}))
"""


def test_artifacts_run_without_torch(artifacts):
    cases = artifacts["cases"]
    if not cases:
        pytest.skip("no model test ran before this one")
    listing = artifacts["dir"] / "cases.json"
    listing.write_text(json.dumps(cases))
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", _LITE, str(listing)], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert not report["leaked"]
    bad = {p: e for p, e in report["worst"].items() if e > TOL}
    assert not bad, bad
    assert len(report["worst"]) == len({c[0] for c in cases})


@pytest.mark.parametrize("name", [n for n in B.MODELS])
def test_artifact_holds_the_weights_once(name, tmp_path):
    """Saved artifacts are the raw weight bytes plus a small overhead (≤ 1.05x for models
    whose weights dominate; freezing folds batch norms away, so it can only shrink)."""
    model = B.make_model(name)
    raw = sum(t.numel() * t.element_size() for t in model.state_dict().values())
    for label, sm in (("scripted", ember.script(model)), ("frozen", ember.freeze(model))):
        path = tmp_path / f"{name}_{label}.ember"
        sm.save(path)
        size = path.stat().st_size
        assert size <= 1.05 * raw + 24_000, f"{name} {label}: {size} bytes for {raw} raw"
        if raw >= 256_000:
            assert size <= 1.05 * raw, f"{name} {label}: {size} bytes for {raw} raw"


@pytest.mark.parametrize("kind, name", MODELS, ids=[n for _, n in MODELS])
def test_model_matches_torch_natively(kind, name):
    """backend="llvm" (native kernels where they cover a call, numpy kernels for the rest)
    within the same 1e-4 of torch eager, batch 1 and 32."""
    pytest.importorskip("llvmlite")
    model = _model(kind, name)
    native = ember.script(model, backend="llvm")
    for batch in BATCHES:
        args = _inputs(kind, name, batch)
        with torch.no_grad():
            want = model(*args)
        _check(native(*[a.numpy() for a in args]), want, f"{name} llvm, batch {batch}")
