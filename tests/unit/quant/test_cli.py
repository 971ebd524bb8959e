"""`ember quantize`: a model file (or TorchScript archive) to an int8 artifact."""

import os
import textwrap

import numpy as np
import pytest

import ember
from ember.cli import main

MODEL = textwrap.dedent("""
    import ember.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(16, 32)
            self.fc2 = nn.Linear(32, 4)

        def forward(self, x):
            return self.fc2(nn.functional.relu(self.fc1(x)))

    net = Net()
""")


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "net.py"
    path.write_text(MODEL)
    return str(path)


def test_dynamic_by_default(model_file, tmp_path, capsys):
    out = str(tmp_path / "net.int8.ember")
    assert main(["quantize", f"{model_file}:net", "-o", out, "--report"]) == 0
    text = capsys.readouterr().out
    assert "int8   tensor.linear" in text and "mode dynamic" in text
    assert "per-tensor" in text and "per-channel" not in text  # torch.ao's default
    x = np.random.default_rng(0).standard_normal((3, 16)).astype(np.float32)
    assert ember.mobile.load(out)(x).shape == (3, 4)
    assert main(["quantize", f"{model_file}:net", "-o", out, "--report", "--per-channel"]) == 0
    assert "per-channel" in capsys.readouterr().out


def test_static_with_calibration_batches(model_file, tmp_path, capsys):
    rng = np.random.default_rng(1)
    batches = str(tmp_path / "b.npz")
    np.savez(batches, *[rng.standard_normal((4, 16)).astype(np.float32) for _ in range(3)])
    out = str(tmp_path / "s.ember")
    assert main(["quantize", f"{model_file}:net", "--calibration", batches, "-o", out,
                 "--observer", "minmax"]) == 0
    assert "mode static" in capsys.readouterr().out
    loaded = ember.mobile.load(out)
    assert loaded(rng.standard_normal((2, 16)).astype(np.float32)).dtype == np.float32


def test_artifacts_and_bad_batches_are_refused(model_file, tmp_path, capsys):
    art = str(tmp_path / "a.ember")
    assert main(["quantize", art, "-o", str(tmp_path / "b.ember")]) == 1
    assert "holds bytecode" in capsys.readouterr().err
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    assert main(["quantize", f"{model_file}:net", "--calibration", str(bad), "-o",
                 str(tmp_path / "c.ember")]) == 1
    assert "cannot read calibration" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "c.ember")
