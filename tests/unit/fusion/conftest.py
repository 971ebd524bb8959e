import pytest

from ember.mobile import fused


@pytest.fixture(autouse=True)
def plan_small_tensors():
    """Small test tensors take the planned (buffer) path too, not only their kernels."""
    old = fused.small_size(0)
    yield
    fused.small_size(old)
