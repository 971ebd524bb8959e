"""Every zoo model trains one SGD step under ember.train_step as torch trains it (float32
weights within 2e-7), or is refused by name (never trained silently wrong)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import ember
import ember.optim

torch = pytest.importorskip("torch")
from tests.models import zoo as Z  # noqa: E402

REFUSED = {
    "autoencoder": "the model returns tuple",   # needs a loss that takes the tuple
    "scorer": "the model returns tuple",
    "multi_head": "list.getitem",                # chunk's pieces carry no gradient yet
}
DROPOUT = {"residual_mlp"}  # ember's masks are its own (seeded), not torch's


@pytest.mark.parametrize("name", sorted(Z.ZOO))
def test_zoo_model_trains_like_torch(name):
    torch.manual_seed(0)
    model = Z.make(name).train()
    ref = copy.deepcopy(model)
    x = Z.inputs(name, 2)
    with torch.no_grad():
        y = copy.deepcopy(model).eval()(*x)
    if isinstance(y, tuple):
        y = y[0]
    target = torch.randn(y.shape, generator=torch.Generator().manual_seed(3))
    if name in REFUSED:
        with pytest.raises(ember.errors.EmberError, match=REFUSED[name]):
            ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.05))
        return
    step = ember.train_step(model, torch.nn.MSELoss(), ember.optim.SGD(0.05))
    loss = step(*[a.numpy() for a in x], target.numpy())
    assert np.isfinite(loss)
    if name in DROPOUT:
        return
    opt = torch.optim.SGD(ref.parameters(), lr=0.05)
    want = torch.nn.functional.mse_loss(ref(*x), target)
    opt.zero_grad()
    want.backward()
    opt.step()
    assert loss == pytest.approx(want.item(), rel=1e-5)
    sd = step.state_dict()
    for k, v in ref.state_dict().items():
        if v.dtype.is_floating_point and k in sd:
            np.testing.assert_allclose(sd[k], v.detach().numpy(), rtol=0, atol=2e-7, err_msg=k)
