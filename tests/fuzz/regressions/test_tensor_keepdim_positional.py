"""Found by the tensor fuzzer: `torch.amax(x, 0, False)` packed the positional keepdim
bool into the dims list (dims [0, False]: numpy's "duplicate value in 'axis'"). Only a
run of ints is packed as varargs sizes; a bool is the next parameter."""

import numpy as np

import ember

SOURCE = '''
import torch


def amax0(x: torch.Tensor) -> torch.Tensor:
    return torch.amax(x, 0, False)


def sum_keep(x: torch.Tensor) -> torch.Tensor:
    return x.sum(1, True)


def view_sizes(x: torch.Tensor) -> torch.Tensor:
    return x.view(2, -1)
'''


def test_positional_keepdim_is_not_a_size():
    cu = ember.CompilationUnit(SOURCE, filename="keepdim.py")
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(cu.amax0(x), x.max(0))
    np.testing.assert_array_equal(cu.sum_keep(x), x.sum(1, keepdims=True))
    assert cu.view_sizes(x).shape == (2, 4)
