"""Found by the tensor fuzzer: `x[a:b]` (a slice alone, no tuple) was refused with
"Tensor cannot be sliced" while `x[a:b, ...]` compiled; a lone slice of a tensor is
now a tensor index spec like any other."""

import numpy as np

import ember

SOURCE = '''
import torch


def rows(x: torch.Tensor) -> torch.Tensor:
    return x[1:3]


def tail(x: torch.Tensor, i: int) -> torch.Tensor:
    return x[i:]


def every_other(x: torch.Tensor) -> torch.Tensor:
    return x[::2] + x[1::2]
'''


def test_lone_slices_of_tensors():
    cu = ember.CompilationUnit(SOURCE, filename="slices.py")
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(cu.rows(x), x[1:3])
    np.testing.assert_array_equal(cu.tail(x, 1), x[1:])
    np.testing.assert_array_equal(cu.every_other(x), x[::2] + x[1::2])
    assert cu.rows(x).dtype == np.float32
