"""Gradients do not flow through complex numbers: a float path through a complex value is
refused at compile time, never differentiated as if the complex value were a constant."""

import pytest

import ember
from ember.errors import UnsupportedError


def through_complex(x: float) -> float:
    z = complex(x, 1.0)
    return abs(z * z)


def real_part(x: float) -> float:
    return (x * 1j + 2).real * x


def plain(x: float) -> float:
    return x * x


@pytest.mark.parametrize("fn", [through_complex, real_part])
def test_a_gradient_through_a_complex_value_is_refused(fn):
    with pytest.raises(UnsupportedError, match="gradients do not flow through complex"):
        ember.grad(fn)(3.0)


def test_float_gradients_are_unchanged():
    assert ember.grad(plain)(3.0) == 6.0
