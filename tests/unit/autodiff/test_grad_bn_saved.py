"""A training batch norm's forward keeps its batch mean and 1 / std
(tensor.batch_norm_train) and the backward reads them (tensor.batch_norm_backward_saved):
the same results as the forward and backward that recompute them, and torch's."""

import numpy as np
import pytest

import ember
from ember.ops import tensor_grad as TG
from ember.ops import tensor_nn as TN

torch = pytest.importorskip("torch")


def _case(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    c = shape[1]
    return x, g, rng.random(c).astype(dtype) + 0.5, rng.standard_normal(c).astype(dtype)


@pytest.mark.parametrize("shape", [(4, 3, 5), (3, 4, 6, 5), (2, 3), (2, 2, 3, 4, 2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_saved_statistics_give_the_recomputed_gradients(shape, dtype):
    x, g, w, b = _case(shape, dtype)
    c = shape[1]
    rm, rv = np.zeros(c, dtype), np.ones(c, dtype)
    rm2, rv2 = rm.copy(), rv.copy()
    y, saved = TN.batch_norm_train(x, rm, rv, w, b, True, 0.1, 1e-5)
    np.testing.assert_array_equal(y, TN.batch_norm(x, rm2, rv2, w, b, True, 0.1, 1e-5))
    np.testing.assert_array_equal(rm, rm2)
    np.testing.assert_array_equal(rv, rv2)
    assert saved.shape == (2 * c,) and saved.dtype == dtype
    for weight in (w, None):
        got = TG.batch_norm_backward_saved(g, x, weight, saved)
        want = TG.batch_norm_backward(g, x, rm, rv, weight, True, 1e-5)
        for a, e in zip(got, want):
            assert a.dtype == dtype
            np.testing.assert_array_equal(a, e)
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    torch.nn.functional.batch_norm(tx, None, None, tw, tb, True, 0.1, 1e-5).backward(
        torch.tensor(g))
    got = TG.batch_norm_backward_saved(g, x, w, saved)
    tol = 1e-4 if dtype == np.float32 else 1e-9
    for a, t in zip(got, (tx, tw, tb)):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=tol, atol=tol)


class BN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm2d(3)
        self.fc = torch.nn.Linear(3 * 4 * 4, 2)

    def forward(self, x):
        y = self.bn(x)
        return self.fc((y * y).flatten(1)) + y.mean()


def test_train_step_reads_the_saved_statistics():
    # the batch norm's result is read twice (y * y, mean): both reads see the kept forward
    torch.manual_seed(0)
    model = BN()
    ref = BN()
    ref.load_state_dict(model.state_dict())
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.1))
    ops = {op.name for f in step._compiled.module.funcs.values() for op in f.walk()} \
        if hasattr(step, "_compiled") else None
    if ops is not None:
        assert "tensor.batch_norm_train" in ops
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        x = rng.standard_normal((5, 3, 4, 4)).astype(np.float32)
        t = rng.standard_normal((5, 2)).astype(np.float32)
        loss = step(x, t)
        opt.zero_grad()
        want = torch.nn.functional.mse_loss(ref(torch.tensor(x)), torch.tensor(t))
        want.backward()
        opt.step()
        assert loss == pytest.approx(want.item(), rel=1e-5)
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        if k in sd:
            np.testing.assert_allclose(sd[k], v.numpy(), rtol=1e-4, atol=1e-5)
