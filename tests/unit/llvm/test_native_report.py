"""f.native_report() and `ember inspect --dot` (ember/llvm/report.py): where each tensor op
of a scripted model runs under backend="llvm", statically and for a recorded call."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import ember
from ember.errors import UnsupportedError

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

_SRC = '''
import torch
import torch.nn.functional as F


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 6 * 6, 10)

    def forward(self, x):
        y = F.relu(self.conv(x))
        y = torch.flatten(y, 1)
        z = self.fc(y)
        return torch.log_softmax(z, -1)
'''


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "net.py"
    path.write_text(_SRC)
    return str(path)


@pytest.fixture(scope="module")
def net(net_file):
    import importlib.util

    spec = importlib.util.spec_from_file_location("report_net", net_file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    torch.manual_seed(0)
    return ember.script(mod.Net().eval(), backend="llvm")


def _by_op(report):
    return {r.label(): r for r in report.rows}


def test_static_report_classifies_each_site(net):
    rows = _by_op(net.native_report())
    assert rows["fused(conv2d, relu)"].where == "fused"
    assert rows["flatten"].where == "view"
    assert rows["linear"].where == "native"
    assert rows["log_softmax"].where == "numpy"
    assert "no native kernel for tensor.log_softmax" in rows["log_softmax"].reasons
    assert rows["fused(conv2d, relu)"].line.startswith("net.py:13 ")
    assert rows["log_softmax"].line.startswith("net.py:16 ")
    # the graph: the group's rows feed the flatten, which feeds the linear
    ids = {r.label(): r.id for r in net.native_report().rows}
    assert ids["fused(conv2d, relu)"] in rows["flatten"].inputs
    assert ids["flatten"] in rows["linear"].inputs


def test_recorded_report_counts_calls_and_gives_reasons(net):
    x = np.random.default_rng(0).standard_normal((4, 3, 6, 6)).astype(np.float32)
    r = net.native_report(x)
    rows = _by_op(r)
    assert r.recorded
    assert rows["fused(conv2d, relu)"].calls == {"fused": 1}
    assert rows["linear"].calls == {"native": 1}
    assert rows["log_softmax"].calls == {"numpy": 1}
    assert r.totals() == {"fused": 1, "view": 1, "native": 1, "numpy": 1}
    text = str(r)
    assert "one recorded call" in text and "numpy: no native kernel for tensor.log_softmax" in text
    # the report's call left the function's own results unchanged
    np.testing.assert_array_equal(net(x), net(x))


def test_recorded_fallback_names_the_arguments():
    def f(x, w):
        return torch.nn.functional.layer_norm(x, [3], w, None, 1e-5)

    fn = ember.script(f, backend="llvm")
    w = np.ones(3, np.float64)
    rows = [r for r in fn.native_report(np.ones((2, 3)), w).rows if r.op == "tensor.layer_norm"]
    assert len(rows) == 1 and rows[0].where == "numpy" and rows[0].calls == {"numpy": 1}
    (why,) = rows[0].reasons
    assert "float64[2, 3]" in why
    ok = fn.native_report(np.ones((2, 3), np.float32), w.astype(np.float32))
    assert [r.where for r in ok.rows if r.op == "tensor.layer_norm"] == ["native"]


def test_fused_group_of_elementwise_ops_is_one_native_loop():
    def f(x, y):
        return torch.relu(x * y + 1.0) - y

    fn = ember.script(f, backend="llvm")
    x = np.ones((3, 5), np.float32)
    r = fn.native_report(x, x)
    fused = [row for row in r.rows if row.steps]
    assert fused and all(row.where == "fused" and row.calls == {"fused": 1} for row in fused)
    r64 = fn.native_report(x.astype(np.float64), x.astype(np.float64))
    assert all(row.where == "numpy" for row in r64.rows if row.steps)


def test_dot_outlines_groups_and_marks_nodes(net):
    dot = net.native_report().dot()
    assert dot.startswith("digraph native_report {") and dot.rstrip().endswith("}")
    assert "subgraph cluster_" in dot and 'label="fused group (native)"' in dot
    assert "fillcolor=orange" in dot  # log_softmax, on numpy
    assert "fillcolor=palegreen" in dot


def test_vm_backend_has_no_native_report():
    def f(x):
        return torch.relu(x)

    with pytest.raises(UnsupportedError, match="backend=\"llvm\""):
        ember.script(f).native_report()


def test_cli_inspect_writes_the_dot(net_file, tmp_path):
    out = tmp_path / "net.dot"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-m", "ember.cli", "inspect", f"{net_file}:Net",
                        "--dot", str(out)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "native report of forward" in p.stdout and "fused(conv2d, relu)" in p.stdout
    assert out.read_text().startswith("digraph native_report {")
