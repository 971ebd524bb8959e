"""`ember convert` in a process where torch cannot be imported: what it converted, and on
failure every unsupported operator with its place."""

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

_BLOCKED = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "torch" or name.startswith("torch."):
                raise ImportError(name + " is blocked")
    sys.meta_path.insert(0, Block())
    from ember.cli import main
    code = main(sys.argv[1:])
    assert "torch" not in sys.modules
    sys.exit(code)
""")


def _convert(*args):
    return subprocess.run([sys.executable, "-c", _BLOCKED, "convert", *args],
                          capture_output=True, text=True, timeout=600)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 2, 3)
        self.bn = torch.nn.BatchNorm2d(2)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


class Odd(torch.nn.Module):
    def forward(self, x):
        return torch.special.erfcx(x) + torch.special.i1e(x)


def test_convert_prints_methods_parameters_operators(tmp_path):
    torch.manual_seed(0)
    m = Net().eval()
    path = tmp_path / "net.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(m), str(path))
    out = tmp_path / "net.ember"
    r = _convert(str(path), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "methods:    forward" in r.stdout
    assert "parameters: 29 values in 7 tensors" in r.stdout  # conv 18 + 2, bn 4 x 2 + 1
    assert "tensor.conv2d" in r.stdout and "tensor.batch_norm" not in r.stdout  # folded
    from ember import mobile
    x = torch.randn(1, 1, 5, 5)
    np.testing.assert_allclose(mobile.load(str(out))(x.numpy()), m(x).detach().numpy(),
                               rtol=1e-5, atol=1e-5)


def test_convert_lists_every_unsupported_operator(tmp_path):
    path = tmp_path / "odd.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.trace(Odd(), (torch.randn(3),), check_trace=False),
                       str(path))
    r = _convert(str(path), "-o", str(tmp_path / "odd.ember"))
    assert r.returncode == 1
    assert "aten::special_erfcx" in r.stderr and "aten::special_i1e" in r.stderr
    assert r.stderr.count("      at ") >= 2 and ".py:" in r.stderr
    assert not (tmp_path / "odd.ember").exists()


def test_convert_refuses_a_corrupt_archive(tmp_path):
    path = tmp_path / "bad.pt"
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    r = _convert(str(path), "-o", str(tmp_path / "bad.ember"))
    assert r.returncode == 1 and "zip" in r.stderr
