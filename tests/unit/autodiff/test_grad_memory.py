"""What an adjoint function keeps and computes: no forward value held only for its shape,
no adjoint computed for constants or for a parameter nothing differentiable reads, no
region op recomputed for nothing (each would keep an activation alive until the reverse
sweep reaches it, or run work whose result is dropped). Gradients checked against
torch.autograd and finite differences (test_grad_tensor.check)."""

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
Tensor = torch.Tensor


def _kernels(fn, nums):
    g = ember.grad(fn, argnums=nums)
    return [op for f in g._compiled.module.funcs.values() for op in f.walk()
            if op.name.startswith("tensor.")]


def broadcast_residual(x: Tensor, y: Tensor) -> Tensor:
    return (x + torch.cumsum(y, 0) * 2.0).sum()


def test_sum_to_reads_a_shape_stand_in():
    check(broadcast_residual, [A(3, 4), A(4)], [0, 1])
    sums = [op for op in _kernels(broadcast_residual, (0, 1)) if op.name == "tensor.sum_to"]
    assert sums
    for op in sums:
        like = op.operands[1]
        assert getattr(like, "op", None) is None or like.op.name == "tensor.zeros_unread"


def branchy(x: Tensor, flag: bool) -> Tensor:
    if flag:
        y = torch.transpose(x, 0, 1) * 2.0
    else:
        y = x * 3.0
    return torch.cumsum(y, 0).sum()


def test_reversed_branch_recomputes_nothing_unread_and_no_constant_adjoint():
    for flag in (True, False):
        check(branchy, [A(2, 3)], [0], extra=(flag,))
    names = [op.name for op in _kernels(branchy, (0,))]
    assert names.count("tensor.transpose") == 2  # the forward's and its rule's
    assert "tensor.mul" not in names  # 2.0's and 3.0's adjoints (g * x, summed)


def restore(y: Tensor, x: Tensor) -> Tensor:
    if y.dim() != x.dim():
        return y.view(x.shape)
    return y


def through_call(x: Tensor, y: Tensor) -> Tensor:
    return (x * restore(torch.sin(y), x)).sum()


def test_call_parameter_read_for_its_shape_gets_no_zeros():
    check(through_call, [A(2, 3), A(6)], [0, 1])
    check(through_call, [A(2, 3), A(2, 3)], [0, 1])
    names = [op.name for op in _kernels(through_call, (0, 1))]
    assert "tensor.zeros_like" not in names and "tensor.add" not in names


def restore_sum(y: Tensor, x: Tensor) -> Tensor:
    return restore(y, x).sum()


def test_grad_of_a_function_returns_writable_zeros_for_an_unread_parameter():
    g = ember.grad(restore_sum, argnums=(0, 1))
    gy, gx = g(np.ones(6), np.ones((2, 3)))
    np.testing.assert_array_equal(gx, np.zeros((2, 3)))
    gx += 1.0  # a real array, not a read-only broadcast


@pytest.mark.parametrize("shapes", [((4, 3, 5, 6), (4, 3, 1, 1)), ((4, 3, 5, 6), (4, 1, 1, 1)),
                                    ((4, 3, 5), (1, 3, 1)), ((4, 3), (4, 3)), ((4, 3), (3,)),
                                    ((2, 3, 4), (2, 3, 4))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mul_sum_to_is_sum_to_of_the_product(shapes, dtype):
    from ember.ops.tensor_grad import mul_sum_to, sum_to
    full, small = shapes
    a, b = A(*full).astype(dtype), A(*full).astype(dtype)
    like = np.zeros(small, dtype)
    got = mul_sum_to(a, b, like)
    assert got.shape == like.shape and got.dtype == like.dtype
    np.testing.assert_allclose(got, sum_to(a * b, like), rtol=1e-5 if dtype == np.float32
                               else 1e-12)


@pytest.mark.parametrize("case", ["squeeze_excite", "scale_first", "spatial", "strided"])
def test_mul_conv2d_backward_kernels_match_the_product_form(case):
    from ember.ops.tensor_fused import (mul_conv2d_input_backward,
                                        mul_conv2d_weight_backward)
    from ember.ops.tensor_grad import conv2d_input_backward, conv2d_weight_backward
    y, s = A(3, 4, 5, 6), A(3, 4, 1, 1)
    kernel, stride = (1, 1) if case != "spatial" else (3, 3), 1 if case != "strided" else 2
    w = A(7, 4, *kernel)
    a, b = (s, y) if case == "scale_first" else (y, s)
    out_hw = ((5 - kernel[0]) // stride + 1, (6 - kernel[1]) // stride + 1)
    g = A(3, 7, *out_hw)
    args = (stride, 0, 1, 1)
    np.testing.assert_allclose(mul_conv2d_weight_backward(g, a, b, w, *args),
                               conv2d_weight_backward(g, a * b, w, *args), rtol=1e-12)
    np.testing.assert_allclose(mul_conv2d_input_backward(g, a, b, w, *args),
                               conv2d_input_backward(g, a * b, w, *args), rtol=1e-12)


@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_from_saved_gives_the_forward_bits(affine):
    from ember.ops.tensor_nn import batch_norm_from_saved, batch_norm_train
    x = A(4, 3, 5, 5).astype(np.float32)
    w, b = (A(3).astype(np.float32), A(3).astype(np.float32)) if affine else (None, None)
    y, saved = batch_norm_train(x, np.zeros(3, np.float32), np.ones(3, np.float32), w, b,
                                True, 0.1, 1e-5)
    np.testing.assert_array_equal(batch_norm_from_saved(x, saved, w, b), y)


def test_a_batch_norm_result_read_by_a_backward_is_recomputed():
    """BN -> hardswish: hardswish's backward reads the BN's result, recomputed from the BN's
    input and statistics, so the step keeps one activation per pair, not two."""
    import ember.optim

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 1, bias=False)
            self.bn = torch.nn.BatchNorm2d(4)

        def forward(self, x):
            return torch.nn.functional.hardswish(self.bn(self.conv(x))).mean((2, 3))

    torch.manual_seed(0)
    model = Block().double()
    ref = Block().double()
    ref.load_state_dict(model.state_dict())
    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1))
    names = {op.name for f in step._compiled.module.funcs.values() for op in f.walk()}
    assert "tensor.batch_norm_from_saved" in names
    opt = torch.optim.SGD(ref.parameters(), lr=0.1)
    x, t = A(8, 3, 5, 5), np.arange(8) % 4
    for _ in range(3):
        loss = step(x, t)
        opt.zero_grad()
        want = torch.nn.functional.cross_entropy(ref(torch.tensor(x)), torch.tensor(t))
        want.backward()
        opt.step()
        assert abs(loss - want.item()) < 1e-10
    sd = step.state_dict()
    np.testing.assert_allclose(sd["conv.weight"], ref.conv.weight.detach().numpy(), rtol=1e-10)
