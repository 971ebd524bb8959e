"""Bugs the differentiable-program fuzzer (ember fuzz --mode grad) found, each as the
smallest program showing it: float64 against torch.autograd and central differences
(test_grad_tensor.check), or finite differences of the gradient for grad of grad."""

import math

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


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
