"""ember.script of torch.nn modules: same results as torch eager, in process and after
save -> ember.mobile.load in a process where torch cannot be imported."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402
from ember import mobile  # noqa: E402

from . import torch_src as S  # noqa: E402


def _net():
    torch.manual_seed(0)
    return S.Net().eval()


def test_user_torch_module_matches_eager(tmp_path):
    m = _net()
    x = torch.randn(3, 4)
    want = m(x).detach().numpy()
    sm = ember.script(m)
    got = sm(x.numpy())
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sm.scaled(x.numpy(), 2.0), want * 2, rtol=1e-5, atol=1e-6)
    fz = ember.freeze(m)
    np.testing.assert_allclose(fz(x.numpy()), want, rtol=1e-5, atol=1e-6)
    path = tmp_path / "net.ember"
    fz.save(path)
    np.testing.assert_allclose(mobile.load(path)(x.numpy()), want, rtol=1e-5, atol=1e-6)


def test_artifact_runs_where_torch_cannot_be_imported(tmp_path):
    m = _net()
    x = torch.randn(2, 4)
    path = tmp_path / "net.ember"
    ember.script(m).save(path)
    np.save(tmp_path / "x.npy", x.numpy())
    np.save(tmp_path / "want.npy", m(x).detach().numpy())
    code = f"""
import sys, importlib.abc
import numpy as np
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith(("torch.", "lark", "llvmlite", "ember.frontend",
                                               "ember.api", "ember.nn")):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
from ember import mobile
m = mobile.load({str(path)!r})
got = m(np.load({str(tmp_path / 'x.npy')!r}))
want = np.load({str(tmp_path / 'want.npy')!r})
assert np.abs(got - want).max() < 1e-5, np.abs(got - want).max()
print("ok", "torch" in sys.modules)
"""
    src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "ok False", out.stderr


def test_unknown_attribute_of_a_layer_is_a_compile_error():
    with pytest.raises(ember.errors.CompileError) as ei:
        ember.script(S.Unsupported())
    assert ei.value.filename.endswith("torch_src.py")
