"""Every zoo model trains one SGD step under ember.train_step as torch trains it (float32
weights within 2e-7 absolute + 2e-7 relative, a rounding or two; float64 within 1e-9),
or is refused by name (never trained silently wrong)."""

from __future__ import annotations

import copy
from typing import Tuple

import numpy as np
import pytest

import ember
import ember.optim

torch = pytest.importorskip("torch")
from tests.models import zoo as Z  # noqa: E402

F = torch.nn.functional
Tensor = torch.Tensor
TUPLE_OUT = {"autoencoder", "scorer"}  # trained through a loss that takes the tuple
DROPOUT = {"residual_mlp"}  # ember's masks are its own (seeded), not torch's
NO_F64 = {"stacked_lstm"}   # the model makes float32 initial states itself


def first_mse(out: Tuple[Tensor, Tensor], target: Tensor) -> Tensor:
    return F.mse_loss(out[0], target)


def _setup(name, dtype):
    torch.manual_seed(0)
    model = Z.make(name).train().to(dtype)
    ref = copy.deepcopy(model)
    x = [a.to(dtype) if a.is_floating_point() else a for a in Z.inputs(name, 2)]
    with torch.no_grad():
        y = copy.deepcopy(model).eval()(*x)
    if isinstance(y, tuple):
        y = y[0]
    target = torch.randn(y.shape, generator=torch.Generator().manual_seed(3)).to(dtype)
    return model, ref, x, target


def _train_both(name, dtype):
    model, ref, x, target = _setup(name, dtype)
    loss_fn = first_mse if name in TUPLE_OUT else torch.nn.MSELoss()
    step = ember.train_step(model, loss_fn, ember.optim.SGD(0.05))
    loss = step(*[a.numpy() for a in x], target.numpy())
    assert np.isfinite(loss)
    if name in DROPOUT:
        return None
    opt = torch.optim.SGD(ref.parameters(), lr=0.05)
    out = ref(*x)
    want = F.mse_loss(out[0] if name in TUPLE_OUT else out, target)
    opt.zero_grad()
    want.backward()
    opt.step()
    return loss, want.item(), step.state_dict(), ref.state_dict()


@pytest.mark.parametrize("name", sorted(Z.ZOO))
def test_zoo_model_trains_like_torch(name):
    r = _train_both(name, torch.float32)
    if r is None:
        return
    loss, want, sd, ref = r
    assert loss == pytest.approx(want, rel=1e-5)
    for k, v in ref.items():
        if v.dtype.is_floating_point and k in sd:
            np.testing.assert_allclose(sd[k], v.detach().numpy(), rtol=2e-7, atol=2e-7,
                                       err_msg=k)


@pytest.mark.parametrize("name", sorted(set(Z.ZOO) - NO_F64 - DROPOUT))
def test_zoo_model_trains_like_torch_in_float64(name):
    loss, want, sd, ref = _train_both(name, torch.float64)
    assert loss == pytest.approx(want, rel=1e-12)
    for k, v in ref.items():
        if v.dtype.is_floating_point and k in sd:
            np.testing.assert_allclose(sd[k], v.detach().numpy(), rtol=1e-9, atol=1e-13,
                                       err_msg=k)


@pytest.mark.parametrize("name", sorted(TUPLE_OUT))
def test_tuple_output_with_a_tensor_loss_is_refused(name):
    model = Z.make(name).train()
    with pytest.raises(ember.errors.EmberError, match="the model returns tuple"):
        ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.05))
