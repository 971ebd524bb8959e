"""Bugs the differentiable-program fuzzer (ember fuzz --mode grad) found, each as the
smallest program showing it: float64 against torch.autograd and central differences
(test_grad_tensor.check), or finite differences of the gradient for grad of grad."""

import math
from typing import List

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


def bce_target(x: Tensor, t: Tensor) -> Tensor:
    return F.binary_cross_entropy(torch.sigmoid(x), torch.sigmoid(t))


def bce_logits_target(x: Tensor, t: Tensor, w: Tensor) -> Tensor:
    return F.binary_cross_entropy_with_logits(x, torch.sigmoid(t)) + \
        F.binary_cross_entropy_with_logits(x, torch.sigmoid(t), pos_weight=torch.abs(w) + 0.5)


def kl_target(x: Tensor, t: Tensor) -> Tensor:
    return F.kl_div(F.log_softmax(x, -1), F.softmax(t, -1), reduction="batchmean") + \
        F.kl_div(F.log_softmax(x, -1), F.log_softmax(t, -1), reduction="sum", log_target=True)


def ce_prob_target(x: Tensor, t: Tensor) -> Tensor:
    return F.cross_entropy(x, F.softmax(t, 1)) + \
        F.cross_entropy(x, F.softmax(t, 1), label_smoothing=0.2, reduction="sum")


@pytest.mark.parametrize("fn", [bce_target, kl_target, ce_prob_target])
def test_loss_target_gets_its_gradient(fn):
    # the target's gradient was dropped (None): a silent wrong gradient for x -> t paths
    check(fn, [A(3, 4), A(3, 4)], [0, 1])


def test_bce_with_logits_target_gradient_with_pos_weight():
    check(bce_logits_target, [A(3, 4), A(3, 4)], [0, 1], extra=(A(4),))


def zero_dim_loss(x: Tensor) -> Tensor:
    return F.l1_loss(torch.amin(x, 0), torch.unbind(x, 0)[1]) + \
        F.mse_loss(x.sum(), x[0]) + F.kl_div(x[0], torch.sigmoid(x[1]), reduction="sum")


def test_zero_dim_loss_gradient_keeps_zero_dims():
    # the backward kernels made 0-d gradients 1-d (ascontiguousarray): expand failed
    check(zero_dim_loss, [A(3)], [0])


def broadcast_loss(x: Tensor, t: Tensor) -> Tensor:
    return F.mse_loss(x, t) + F.l1_loss(t, x)


def test_broadcast_loss_input_gradient_has_the_input_shape():
    with pytest.warns(UserWarning):  # torch warns about the broadcast
        check(broadcast_loss, [A(4), A(3, 4)], [0, 1])


def rpow(x: Tensor, s: float) -> Tensor:
    return (0.5 ** x).sum() + (s ** torch.tanh(x)).sum()


def test_number_to_a_tensor_power():
    check(rpow, [A(2, 3)], [0], extra=(1.7,))
    gs = ember.grad(rpow, 1)(A(2, 3), 1.7)
    x = A(2, 3)
    h = 1e-6
    want = (rpow(torch.tensor(x), 1.7 + h) - rpow(torch.tensor(x), 1.7 - h)).item() / (2 * h)
    assert ember.grad(rpow, 1)(x, 1.7) == pytest.approx(want, rel=1e-6)
    assert isinstance(gs, float)


def float_power(a: float) -> float:
    return (1.0 + a * a) ** math.tanh(a)


@pytest.mark.parametrize("x", [0.63, -0.4])
def test_grad_of_grad_of_a_float_power(x):
    # the exponent's log (grad.log_or_zero) had zero derivative: d2 was wrong
    d1 = ember.grad(float_power)
    d2 = ember.grad(d1)
    d3 = ember.grad(d2)
    h = 1e-5
    assert d2(x) == pytest.approx((d1(x + h) - d1(x - h)) / (2 * h), rel=1e-7)
    assert d3(x) == pytest.approx((d2(x + h) - d2(x - h)) / (2 * h), rel=1e-6)


def zero_dim_activations(x: Tensor) -> Tensor:
    n = x.norm(dim=0) - 1.0
    return F.elu(n) + F.elu(-n) + F.gelu(n, approximate="tanh") + F.mish(n) + \
        F.softsign(n) + F.leaky_relu(n, 0.1) + F.hardswish(n) + F.tanhshrink(n) + \
        F.softshrink(n, 0.1) + F.celu(n) + F.selu(n)


@pytest.mark.parametrize("x", [[0.3, -1.2], [0.3, 0.2]])
def test_activations_of_a_zero_dim_tensor(x):
    # they computed into numpy's 0-d temporaries in place (scalars, not arrays): TypeError
    got = ember.script(zero_dim_activations)(np.array(x))
    assert got == pytest.approx(zero_dim_activations(torch.tensor(np.array(x))).item(), rel=1e-12)
    check(zero_dim_activations, [np.array(x)], [0])


def hypot_at_zero(x: float) -> float:
    z = math.tanh(x - x)  # exactly 0
    return math.hypot(z, z) + math.hypot(x, 2.0 * x)


def test_hypot_at_the_origin_has_zero_gradient():
    # float division by zero in the gradient (a / hypot with hypot 0)
    assert ember.grad(hypot_at_zero)(0.5) == pytest.approx(math.sqrt(5.0), rel=1e-12)
    assert ember.grad(ember.grad(hypot_at_zero))(0.5) == pytest.approx(0.0, abs=1e-12)


def hardsigmoid_squared(x: Tensor) -> Tensor:
    return (F.hardsigmoid(x) ** 2).sum()


def test_hardsigmoid_gradient_is_torchs_to_the_last_bits():
    # torch scales by float32's 1/6 in float64 too: 3e-8 apart, past 1e-7 a few ops later
    x = A(4, 3) * 2.0
    tx = torch.tensor(x, requires_grad=True)
    hardsigmoid_squared(tx).backward()
    np.testing.assert_allclose(ember.grad(hardsigmoid_squared)(x), tx.grad.numpy(),
                               rtol=1e-14)


def cat_of_a_list_parameter(x: Tensor, xs: List[Tensor]) -> Tensor:
    return (torch.cat(xs) * x).sum() + torch.stack(xs).mean() * x.sum()


def test_a_list_parameter_not_differentiated_does_not_block_the_gradient():
    # cat/stack of a list parameter was refused although nothing needed its gradient
    x, xs = A(6), [A(3), A(3)]
    tx = torch.tensor(x, requires_grad=True)
    cat_of_a_list_parameter(tx, [torch.tensor(a) for a in xs]).backward()
    np.testing.assert_allclose(ember.grad(cat_of_a_list_parameter)(x, xs), tx.grad.numpy(),
                               rtol=1e-12)


def tensor_times_float(x: Tensor, s: float) -> Tensor:
    return (torch.tanh(x) * s * s).sum()


def test_grad_of_grad_through_a_float_operand_of_a_tensor_op():
    # d/ds came back through `.item()` (which detaches): its own gradient was 0
    x = np.array([0.3, -0.5])
    d2 = ember.grad(ember.grad(tensor_times_float, 1), (0, 1))(x, 0.7)
    np.testing.assert_allclose(d2[0], 2 * 0.7 * (1 - np.tanh(x) ** 2), rtol=1e-12)
    assert d2[1] == pytest.approx(2 * np.tanh(x).sum(), rel=1e-12)


def bce_saturated(p: Tensor, t: Tensor) -> Tensor:
    return F.binary_cross_entropy(torch.sigmoid(p * p), torch.sigmoid(t))


def test_bce_target_gradient_is_torchs_unclamped_logit():
    # program 214000859: at an input of exactly 1 (sigmoid(64.0)) the target's gradient is
    # -logit(1) = -inf in torch; ember clamped its logs at -100 (the loss's clamp) and gave
    # a finite gradient where torch's is infinite
    p, t = np.array([8.0, 1.0, 0.3]), np.array([9.0, 0.5, -1.0])
    got = ember.grad(bce_saturated, argnums=(0, 1))(p, t)
    tp, tt = torch.tensor(p, requires_grad=True), torch.tensor(t, requires_grad=True)
    bce_saturated(tp, tt).backward()
    assert got[1][0] == -math.inf and tt.grad[0].item() == -math.inf
    np.testing.assert_allclose(got[0], tp.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(got[1][1:], tt.grad.numpy()[1:], rtol=1e-12)
