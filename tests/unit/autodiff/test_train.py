"""Training: the bench MLP, 50 steps of SGD with momentum and of Adam, run from a saved
artifact in a process that imports only numpy and ember.mobile, against torch."""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ember
import ember.optim

torch = pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "models"))
from bench_models import make_model  # noqa: E402

STEPS = 50

RUNNER = r"""
import json, sys
import numpy as np
import ember.mobile
data = np.load(sys.argv[1])
m = ember.mobile.load(sys.argv[2])
losses = [m.step(data["x%d" % i], data["t%d" % i]) for i in range(int(sys.argv[4]))]
forbidden = [n for n in sys.modules if n == "torch" or n.startswith(("ember.frontend",
             "ember.ir", "ember.passes", "ember.interpreter", "ember.api", "lark"))]
sd = m.state_dict()
np.savez(sys.argv[3], **{k: v for k, v in sd.items()})
print(json.dumps({"losses": losses, "forbidden": forbidden}))
"""


def _data(tmp_path, n_in, n_out, batch=16):
    rng = np.random.default_rng(1)
    data = {}
    for i in range(STEPS):
        data[f"x{i}"] = rng.standard_normal((batch, n_in)).astype(np.float32)
        data[f"t{i}"] = data[f"x{i}"][:, :n_out].argmax(1)  # learnable labels
    np.savez(tmp_path / "data.npz", **data)
    return data


def _torch_run(model, opt, data):
    losses = []
    for i in range(STEPS):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(torch.tensor(data[f"x{i}"])),
                                                 torch.tensor(data[f"t{i}"]))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, {k: v.detach().numpy() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("kind", ["sgd", pytest.param("adam", marks=pytest.mark.xfail(
    reason="known: losses agree within 1e-4 but a few fc1 weights differ by up to 8e-4 after "
    "50 steps (AdamW agrees within 5e-6); not yet explained", strict=False)), "adamw"])
def test_mlp_trains_like_torch_on_the_lite_runtime(kind, tmp_path):
    model = make_model("mlp")
    ref = copy.deepcopy(model)
    if kind == "sgd":
        opt, topt = ember.optim.SGD(0.05, momentum=0.9, weight_decay=1e-4), \
            torch.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    elif kind == "adam":
        opt, topt = ember.optim.Adam(1e-3), torch.optim.Adam(ref.parameters(), lr=1e-3)
    else:
        opt, topt = ember.optim.AdamW(1e-3, weight_decay=0.05), \
            torch.optim.AdamW(ref.parameters(), lr=1e-3, weight_decay=0.05)
    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), opt)
    step.save(tmp_path / "step.ember")
    data = _data(tmp_path, 784, 10)
    want_losses, want_sd = _torch_run(ref, topt, data)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", RUNNER, str(tmp_path / "data.npz"),
                          str(tmp_path / "step.ember"), str(tmp_path / "sd.npz"), str(STEPS)],
                         capture_output=True, text=True, env=env, check=True)
    res = json.loads(out.stdout)
    assert res["forbidden"] == []
    np.testing.assert_allclose(res["losses"], want_losses, rtol=0, atol=1e-4)
    got = np.load(tmp_path / "sd.npz")
    assert sorted(got.files) == sorted(want_sd)
    for k, v in want_sd.items():
        np.testing.assert_allclose(got[k], v, rtol=0, atol=1e-4, err_msg=k)
    assert np.mean(res["losses"][-5:]) < np.mean(res["losses"][:5])


def test_in_process_step_forward_and_state_dict():
    model = make_model("mlp")
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.01))
    x = np.random.default_rng(0).standard_normal((4, 784)).astype(np.float32)
    t = np.zeros((4, 10), np.float32)
    before = step.forward(x)
    loss = step(x, t)
    assert isinstance(loss, float)
    assert not np.array_equal(before, step.forward(x))
    sd = step.state_dict()
    assert set(sd) == {k for k, _ in model.named_parameters()}


def test_layers_needing_training_mode_are_refused():
    model = make_model("cnn")
    with pytest.raises(ember.errors.UnsupportedError, match="BatchNorm2d"):
        ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1))
