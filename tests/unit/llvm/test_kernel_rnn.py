"""The native LSTM recurrence (ember/llvm/kernel_rnn.py) against the VM's numpy kernel:
every shape the native path covers, and the calls it leaves to the kernel."""

from __future__ import annotations

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import kernels  # noqa: E402

BOUND = 2e-5
"""|native - VM| on these models' outputs (|values| < 1): the recurrent product sums in
another order than BLAS (FMA, k ascending) and tanh is ember's (1 ulp); measured ~1e-7."""


class Seq(torch.nn.Module):
    def __init__(self, lstm, with_state=False):
        super().__init__()
        self.lstm = lstm
        self.with_state = with_state

    def forward(self, x, h0, c0):
        if self.with_state:
            out, (h, c) = self.lstm(x, (h0, c0))
        else:
            out, (h, c) = self.lstm(x)
        return out, h, c


def _pair(lstm, with_state=False):
    torch.manual_seed(0)
    m = Seq(lstm, with_state).eval()
    return ember.script(m), ember.script(m, backend="llvm")


def _check(vm, nat, *args):
    before = dict(kernels.COUNTS)
    want, got = vm(*args), nat(*args)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        assert np.abs(w - g).max() <= BOUND
    return {k: v - before.get(k, 0) for k, v in kernels.COUNTS.items()
            if v != before.get(k, 0)}


@pytest.mark.parametrize("batch", [1, 3, 4, 6, 9, 17, 70])
@pytest.mark.parametrize("batch_first", [True, False])
def test_one_layer_every_batch_size(batch, batch_first):
    torch.manual_seed(1)
    vm, nat = _pair(torch.nn.LSTM(12, 20, batch_first=batch_first))
    x = np.random.default_rng(batch).standard_normal(
        (batch, 7, 12) if batch_first else (7, batch, 12)).astype(np.float32)
    z = np.zeros((1, batch, 20), np.float32)
    used = _check(vm, nat, x, z, z)
    assert used.get(("tensor.lstm", "native")) == 1


@pytest.mark.parametrize("batch", [5, 11])  # per-row blocks; one product per step
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_layers_directions_and_initial_state(bidirectional, batch_first, batch):
    torch.manual_seed(2)
    dirs = 2 if bidirectional else 1
    vm, nat = _pair(torch.nn.LSTM(10, 6, num_layers=2, bidirectional=bidirectional,
                                  batch_first=batch_first), with_state=True)
    rng = np.random.default_rng(3)
    shape = (batch, 5, 10) if batch_first else (5, batch, 10)
    x = rng.standard_normal(shape).astype(np.float32)
    h0 = rng.standard_normal((2 * dirs, batch, 6)).astype(np.float32)
    c0 = rng.standard_normal((2 * dirs, batch, 6)).astype(np.float32)
    assert _check(vm, nat, x, h0, c0).get(("tensor.lstm", "native")) == 1


def test_unbatched_and_hidden_sizes_past_a_vector_block():
    torch.manual_seed(4)
    vm, nat = _pair(torch.nn.LSTM(3, 34))  # 4H = 136: 16-lane blocks, then an 8-lane tail
    x = np.random.default_rng(5).standard_normal((9, 3)).astype(np.float32)
    z = np.zeros((1, 34), np.float32)
    assert _check(vm, nat, x, z, z).get(("tensor.lstm", "native")) == 1


@pytest.mark.parametrize("make, dtype", [
    (lambda: torch.nn.LSTM(4, 5), np.float32),               # odd hidden size
    (lambda: torch.nn.LSTM(4, 6).double(), np.float64),      # float64
])
def test_what_the_native_path_leaves_to_the_kernel(make, dtype):
    torch.manual_seed(6)
    lstm = make()
    vm, nat = _pair(lstm)
    x = np.random.default_rng(7).standard_normal((3, 2, 4)).astype(dtype)
    z = np.zeros((1, 2, 6), dtype)
    used = _check(vm, nat, x, z, z)
    assert used.get(("tensor.lstm", "numpy")) == 1 and ("tensor.lstm", "native") not in used


def test_a_wrong_input_width_raises_the_kernels_error():
    torch.manual_seed(8)
    vm, nat = _pair(torch.nn.LSTM(4, 6))
    x = np.zeros((3, 2, 5), np.float32)
    z = np.zeros((1, 2, 6), np.float32)
    with pytest.raises(Exception) as want:
        vm(x, z, z)
    with pytest.raises(type(want.value)) as got:
        nat(x, z, z)
    assert str(got.value) == str(want.value)


def test_the_bench_lstm_matches_torch():
    torch.manual_seed(9)
    lstm = torch.nn.LSTM(64, 128, batch_first=True).eval()
    nat = ember.script(Seq(lstm), backend="llvm")
    x = torch.randn(2, 32, 64)
    with torch.no_grad():
        want = lstm(x)[0].numpy()
    z = np.zeros((1, 2, 128), np.float32)
    assert np.abs(nat(x.numpy(), z, z)[0] - want).max() <= 1e-5
