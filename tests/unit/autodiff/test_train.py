"""Training: the bench MLP, 50 steps of SGD with momentum and of Adam, run from a saved
artifact in a process that imports only numpy and ember.mobile, against torch."""

import copy
from typing import List, Optional, Tuple
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


def _data(tmp_path, shape, n_out, dtype, batch, features=None):
    """STEPS batches with learnable labels: the argmax of the first n_out of `features(x)`
    (x flattened by default)."""
    rng = np.random.default_rng(1)
    data = {}
    for i in range(STEPS):
        x = rng.standard_normal((batch,) + shape).astype(dtype)
        data[f"x{i}"] = x
        f = x.reshape(batch, -1) if features is None else features(x)
        data[f"t{i}"] = f[:, :n_out].argmax(1)
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


def _optimizers(kind, params, lr=0.05):
    if kind == "sgd":
        return ember.optim.SGD(lr, momentum=0.9, weight_decay=1e-4), \
            torch.optim.SGD(params, lr=lr, momentum=0.9, weight_decay=1e-4)
    if kind == "nesterov":
        return ember.optim.SGD(0.02, momentum=0.8, nesterov=True), \
            torch.optim.SGD(params, lr=0.02, momentum=0.8, nesterov=True)
    if kind == "adam":
        return ember.optim.Adam(1e-3, weight_decay=1e-3), \
            torch.optim.Adam(params, lr=1e-3, weight_decay=1e-3)
    return ember.optim.AdamW(1e-3, weight_decay=0.05), \
        torch.optim.AdamW(params, lr=1e-3, weight_decay=0.05)


# (model, optimizer, dtype, batch, weight tolerance). Adam's update divides each gradient
# element by its own magnitude, so in float32 an element that is a cancellation (|g| near
# eps) rounds differently from torch's summation order and moves its weight by up to ~lr:
# float32 Adam agrees in its losses (checked), and in float64 in its weights too.
CASES = [
    ("mlp", "sgd", np.float32, 16, 1e-4),
    ("mlp", "nesterov", np.float32, 16, 1e-4),
    ("mlp", "adamw", np.float32, 16, 1e-4),
    ("mlp", "adam", np.float32, 16, None),
    ("mlp", "adam", np.float64, 16, 1e-9),
    ("cnn", "sgd", np.float32, 2, 1e-4),
    ("cnn", "adam", np.float64, 2, 1e-9),
]


@pytest.mark.parametrize("name,kind,dtype,batch,tol", CASES,
                         ids=[f"{c[0]}-{c[1]}-{np.dtype(c[2]).name}" for c in CASES])
def test_training_matches_torch_on_the_lite_runtime(name, kind, dtype, batch, tol, tmp_path):
    model = make_model(name).to(torch.float64 if dtype == np.float64 else torch.float32)
    shape = (784,) if name == "mlp" else (3, 32, 32)
    _check_training(model, kind, 0.05 if name == "mlp" else 2e-4, dtype, batch, tol, shape,
                    None, tmp_path, decreases=name == "mlp")


def _check_training(model, kind, lr, dtype, batch, tol, shape, features, tmp_path,
                    decreases=True):
    """STEPS steps of `model` from a saved artifact on the lite runtime against torch's:
    the same losses (and weights within tol); the loss decreasing if asked."""
    ref = copy.deepcopy(model).train()
    opt, topt = _optimizers(kind, ref.parameters(), lr)
    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), opt)
    step.save(tmp_path / "step.ember")
    data = _data(tmp_path, shape, 10, dtype, batch, features)
    want_losses, want_sd = _torch_run(ref, topt, data)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", RUNNER, str(tmp_path / "data.npz"),
                          str(tmp_path / "step.ember"), str(tmp_path / "sd.npz"), str(STEPS)],
                         capture_output=True, text=True, env=env, check=True)
    res = json.loads(out.stdout)
    assert res["forbidden"] == []
    np.testing.assert_allclose(res["losses"], want_losses, rtol=0,
                               atol=1e-4 if dtype == np.float32 else 1e-9)
    got = np.load(tmp_path / "sd.npz")
    # torch's num_batches_tracked is the only entry ember does not keep
    assert sorted(got.files) == sorted(k for k in want_sd if "num_batches" not in k)
    if tol is not None:
        for k in got.files:
            np.testing.assert_allclose(got[k], want_sd[k], rtol=0, atol=tol, err_msg=k)
    if decreases:
        assert np.mean(res["losses"][-5:]) < np.mean(res["losses"][:5])
    return res["losses"], want_losses


class _RecurrentHead(torch.nn.Module):
    """A recurrent layer (2 layers, bidirectional for GRU / RNN) and a linear head on the
    last step."""

    def __init__(self, kind):
        super().__init__()
        torch.manual_seed(0)
        layers, bidir = (1, False) if kind == "LSTM" else (2, True)
        self.rnn = getattr(torch.nn, kind)(16, 32, num_layers=layers, batch_first=True,
                                           bidirectional=bidir)
        self.fc = torch.nn.Linear(32 * (2 if bidir else 1), 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x)
        return self.fc(out[:, -1])


class _EncoderHead(torch.nn.Module):
    """The bench transformer encoder layer (dropout 0), mean-pooled, and a linear head."""

    def __init__(self):
        super().__init__()
        self.enc = make_model("transformer")
        self.fc = torch.nn.Linear(128, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.enc(x).mean(1))


def _last_step(x):
    return x[:, -1]


def _mean_over_time(x):
    return x.mean(1)


# (model, optimizer, dtype, input shape, label features): float32 losses and weights
# within 1e-4 of torch's, float64 within 1e-9, and the loss decreasing
SEQ_CASES = [
    ("lstm", "sgd", np.float32, (32, 64), _last_step),
    ("LSTM", "sgd", np.float64, (12, 16), _last_step),
    ("GRU", "sgd", np.float32, (12, 16), _last_step),
    ("RNN", "nesterov", np.float64, (12, 16), _last_step),
    ("transformer", "sgd", np.float32, (16, 128), _mean_over_time),
]


@pytest.mark.parametrize("name,kind,dtype,shape,features", SEQ_CASES,
                         ids=[f"{c[0]}-{c[1]}-{np.dtype(c[2]).name}" for c in SEQ_CASES])
def test_sequence_models_train_like_torch(name, kind, dtype, shape, features, tmp_path):
    tdtype = torch.float64 if dtype == np.float64 else torch.float32
    if name == "lstm":  # the bench LSTM head
        model = make_model("lstm")
    elif name == "transformer":
        torch.manual_seed(0)
        model = _EncoderHead()
    else:
        model = _RecurrentHead(name)
    model = model.to(tdtype).train()
    tol = 1e-4 if dtype == np.float32 else 1e-9
    _check_training(model, kind, 0.05, dtype, 8, tol, shape, features, tmp_path)


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
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 1), torch.nn.Dropout2d(0.5))
    with pytest.raises(ember.errors.UnsupportedError, match="Dropout2d"):
        ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1))


def test_forward_infers_in_eval_mode_with_the_learned_statistics():
    model = make_model("cnn")
    ref = copy.deepcopy(model).train()
    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.01))
    x = np.random.default_rng(0).standard_normal((4, 3, 32, 32)).astype(np.float32)
    t = np.array([1, 2, 3, 4])
    step(x, t)
    ref(torch.tensor(x))  # updates the running statistics as the step did
    ref.eval()
    want = ref(torch.tensor(x)).detach().numpy()
    # ref skipped the update: only the running statistics moved, so compare the state
    sd = step.state_dict()
    np.testing.assert_allclose(sd["bn1.running_mean"], ref.bn1.running_mean.numpy(), atol=1e-6)
    assert step.forward(x).shape == want.shape


def test_loaded_step_saves_what_it_learned(tmp_path):
    from ember import mobile
    model = make_model("mlp")
    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.Adam(1e-3))
    step.save(tmp_path / "a.ember")
    m = mobile.load(tmp_path / "a.ember")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 784)).astype(np.float32)
    t = np.array([0, 1, 2, 3])
    for _ in range(3):
        m.step(x, t)
    m.save(tmp_path / "b.ember")
    m2 = mobile.load(tmp_path / "b.ember")
    assert m2.entries == m.entries
    a, b = m.state_dict(), m2.state_dict()
    assert all(np.array_equal(a[k], b[k]) for k in a)
    np.testing.assert_array_equal(m.forward(x), m2.forward(x))
    assert m.step(x, t) == m2.step(x, t)  # the optimizer's state was saved too


def test_recurrent_weights_train_through_their_layer_list():
    # the LSTM kernel reads its weights from the layer's _flat_weights list: the step turns
    # the list into a literal of the parameters, each gets its gradient
    step = ember.train_step(make_model("lstm"), torch.nn.CrossEntropyLoss(),
                            ember.optim.SGD(0.1))
    before = step.state_dict()
    x = np.random.default_rng(0).standard_normal((2, 5, 64)).astype(np.float32)
    step(x, np.array([1, 2]))
    after = step.state_dict()
    assert all(not np.array_equal(before[k], after[k]) for k in before)


def test_parameters_read_through_mutated_lists_are_refused():
    import ember.nn as enn
    from ember.nn.functional import Tensor

    class Listed(enn.Module):
        def __init__(self):
            super().__init__()
            self.w = enn.init.uniform((4, 4), 0.5, None)
            object.__setattr__(self, "ws", [self._tensors["w"]])

        def forward(self, x: Tensor) -> Tensor:
            ws = self.ws
            ws.append(x)
            return x @ ws[0]

    with pytest.raises(ember.errors.UnsupportedError, match="through the module object @self"):
        ember.train_step(Listed(), _mse, ember.optim.SGD(0.1))


def _mse(output: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    d = output - target
    return (d * d).mean()


def test_a_scripted_function_is_a_loss():
    model = torch.nn.Linear(3, 2).double()
    ref = copy.deepcopy(model)
    step = ember.train_step(model, _mse, ember.optim.SGD(0.1))
    x, t = np.ones((4, 3)), np.zeros((4, 2))
    loss = step(x, t)
    assert loss == pytest.approx(_mse(ref(torch.tensor(x)), torch.tensor(t)).item(), rel=1e-12)


def test_layers_dropping_inside_are_refused():
    for layer in (torch.nn.MultiheadAttention(8, 2, dropout=0.1),
                  torch.nn.GRU(4, 4, num_layers=2, dropout=0.2)):
        with pytest.raises(ember.errors.UnsupportedError, match="dropout=0.0"):
            ember.train_step(layer, torch.nn.MSELoss(), ember.optim.SGD(0.1))


def test_mbv3_block_trains_like_torch_in_float64():
    # depthwise convolution, hardswish / hardsigmoid, squeeze-excite (freeze's mul_conv2d),
    # batch norms in training mode, a residual add; MSE on the block's output
    model = make_model("mbv3_block").double()
    ref = copy.deepcopy(model).train()
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.01, momentum=0.9))
    opt = torch.optim.SGD(ref.parameters(), lr=0.01, momentum=0.9)
    rng = np.random.default_rng(0)
    for _ in range(3):
        x, t = rng.standard_normal((2, 16, 56, 56)), rng.standard_normal((2, 16, 56, 56))
        loss = step(x, t)
        opt.zero_grad()
        want = torch.nn.functional.mse_loss(ref(torch.tensor(x)), torch.tensor(t))
        want.backward()
        opt.step()
        assert loss == pytest.approx(want.item(), rel=1e-12)
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        if "num_batches" not in k:
            np.testing.assert_allclose(sd[k], v.numpy(), rtol=0, atol=1e-9, err_msg=k)


class _Mask(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.mask = None

    def forward(self, x):
        return x * self.mask


def test_dropout_masks_are_seeded_and_reused_by_the_backward():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.Dropout(0.4), torch.nn.ReLU(),
                              torch.nn.Linear(8, 8), torch.nn.Dropout(0.4),
                              torch.nn.Linear(8, 3)).double()
    ref = copy.deepcopy(net)
    masks = [_Mask(), _Mask()]
    ref[1], ref[4] = masks
    step = ember.train_step(net, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1, 0.9), seed=7)
    again = ember.train_step(net, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1, 0.9), seed=7)
    other = ember.train_step(net, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1, 0.9), seed=8)
    opt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    rng = np.random.default_rng(0)
    differ = False
    for k in range(5):
        x, t = rng.standard_normal((5, 6)), rng.integers(0, 3, 5)
        # the documented mask: PCG64 seeded with (seed, step count from 0, dropout site)
        for site, m in enumerate(masks):
            m.mask = torch.tensor((np.random.default_rng([7, k, site]).random((5, 8)) >= 0.4)
                                  / 0.6)
        loss = step(x, t)
        assert again(x, t) == loss
        differ |= other(x, t) != loss
        opt.zero_grad()
        want = torch.nn.functional.cross_entropy(ref(torch.tensor(x)), torch.tensor(t))
        want.backward()
        opt.step()
        assert loss == pytest.approx(want.item(), rel=1e-12)
    assert differ
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        np.testing.assert_allclose(sd[k], v.numpy(), rtol=0, atol=1e-12, err_msg=k)
    # forward infers without dropout
    plain = torch.nn.Sequential(ref[0], torch.nn.ReLU(), ref[3], ref[5])
    np.testing.assert_allclose(step.forward(x), plain(torch.tensor(x)).detach().numpy(),
                               rtol=1e-12)


class _TwoInputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(3, 2), torch.nn.Linear(4, 2)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return self.a(x) * self.b(y)


class _Pair(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.dec = torch.nn.Linear(4, 2), torch.nn.Linear(2, 4)

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        z = self.enc(x)
        return self.dec(z), z


def _pair_loss(out: Tuple[torch.Tensor, torch.Tensor], target: torch.Tensor) -> torch.Tensor:
    d = out[0] - target
    return (d * d).mean() + (out[1] * out[1]).mean() * 0.1


def test_several_inputs_a_tuple_output_and_instance_norm_train_like_torch():
    """Inputs in order or as one tuple; a tuple output through a loss that takes it (a plain
    loss is refused by name); instance norm on each sample's statistics."""
    rng = np.random.default_rng(0)
    x, y, t = rng.standard_normal((5, 3)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    model = _TwoInputs().double()
    ref = copy.deepcopy(model)
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.1))
    got = [step(x, y, t), step((x, y), t)]
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    want = []
    for _ in range(2):
        loss = torch.nn.functional.mse_loss(ref(torch.tensor(x), torch.tensor(y)), torch.tensor(t))
        opt.zero_grad(), loss.backward(), opt.step()
        want.append(loss.item())
    assert got == pytest.approx(want, rel=1e-12)
    with pytest.raises(ember.errors.UnsupportedError, match="the model returns tuple"):
        ember.train_step(_Pair(), torch.nn.MSELoss(), ember.optim.SGD(0.1))
    pair = _Pair().double()
    ref = copy.deepcopy(pair)
    loss = ember.train_step(pair, _pair_loss, ember.optim.SGD(0.1))(y, y)
    assert loss == pytest.approx(_pair_loss(ref(torch.tensor(y)), torch.tensor(y)).item(),
                                 rel=1e-12)
    net = torch.nn.Sequential(torch.nn.Conv1d(2, 3, 3), torch.nn.InstanceNorm1d(3, affine=True),
                              torch.nn.Flatten(), torch.nn.Linear(3 * 6, 2)).double()
    ref = copy.deepcopy(net)
    step = ember.train_step(net, torch.nn.MSELoss(), ember.optim.SGD(0.1))
    xs = rng.standard_normal((4, 2, 8))
    step(xs, t[:4])
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    loss = torch.nn.functional.mse_loss(ref(torch.tensor(xs)), torch.tensor(t[:4]))
    opt.zero_grad(), loss.backward(), opt.step()
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        np.testing.assert_allclose(sd[k], v.numpy(), rtol=1e-10, atol=1e-12)
    with pytest.raises(ember.errors.UnsupportedError, match="track_running_stats"):
        ember.train_step(torch.nn.InstanceNorm1d(3, track_running_stats=True),
                         torch.nn.MSELoss(), ember.optim.SGD(0.1))


class _Blocks(torch.nn.Module):
    """Features collected from a ModuleList by appends, then stacked (ember unrolls the loop)."""

    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(3)])
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feats: List[torch.Tensor] = []
        for block in self.blocks:
            x = torch.relu(block(x)) + x
            feats.append(x)
        return self.head(torch.stack(feats, dim=1).sum(dim=1))


def test_parameters_reaching_the_loss_through_an_appended_list_train():
    """The list that collects the blocks' outputs depends on their weights (activity flows
    through list.append): every weight gets its gradient."""
    rng = np.random.default_rng(1)
    x, t = rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    model = _Blocks().double()
    ref = copy.deepcopy(model)
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.1))
    step(x, t)
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    loss = torch.nn.functional.mse_loss(ref(torch.tensor(x)), torch.tensor(t))
    opt.zero_grad(), loss.backward(), opt.step()
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        np.testing.assert_allclose(sd[k], v.numpy(), rtol=1e-10, atol=1e-12, err_msg=k)


class _Masked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None,
                scale: float = 1.0) -> torch.Tensor:
        y = self.fc(x) * scale
        if mask is not None:
            y = y * mask
        return y


def test_inputs_with_defaults_may_be_left_out(tmp_path):
    """step(x, target) for a forward whose other parameters have defaults (a transformer
    layer's masks); given, they follow the inputs; the artifact's step takes them after
    the target."""
    from ember import mobile
    rng = np.random.default_rng(1)
    x, m, t = rng.standard_normal((5, 4)), rng.standard_normal((5, 2)), rng.standard_normal((5, 2))
    model = _Masked().double()
    ref = copy.deepcopy(model)
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.1))
    got = [step(x, t), step(x, m, t), step((x, m, 2.0), t)]
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    want = []
    for args in [(), (torch.tensor(m),), (torch.tensor(m), 2.0)]:
        loss = torch.nn.functional.mse_loss(ref(torch.tensor(x), *args), torch.tensor(t))
        opt.zero_grad(), loss.backward(), opt.step()
        want.append(loss.item())
    assert got == pytest.approx(want, rel=1e-12)
    step.save(tmp_path / "m.ember")
    loaded = mobile.load(tmp_path / "m.ember")
    assert loaded.step(x, t) == pytest.approx(step(x, t), rel=1e-12)
    assert loaded.step(x, t, m) == pytest.approx(step(x, m, t), rel=1e-12)
