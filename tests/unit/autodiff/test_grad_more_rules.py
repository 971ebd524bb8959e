"""Derivative rules of prod, einsum, max_pool3d and adaptive max pooling: float64 against
torch.autograd and central differences (test_grad_tensor.check)."""

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


def prods(x: Tensor, y: Tensor) -> Tensor:
    return torch.prod(x) + x.prod(1).sum() + (y.prod(0, keepdim=True) * 2.0).sum() + \
        torch.prod(y, -1).sum()


def einsums(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
    a = torch.einsum("ij,jk->ik", x, y)
    b = torch.einsum("ij,ij->i", x, z)
    c = torch.einsum("bij,bjk->bik", x.unsqueeze(0) * z.unsqueeze(0), y.unsqueeze(0))
    d = torch.einsum("ij->j", x)
    e = torch.einsum("ij,kj", x, z)  # implicit output: ik
    f = torch.einsum("i,j->ij", b, d)
    return (a ** 2).sum() + b.sum() + c.sum() + (d ** 3).sum() + (e * e).sum() + f.sum()


def pools(x: Tensor, y: Tensor, v: Tensor) -> Tensor:
    a = F.max_pool3d(v, 2) ** 2
    b = F.max_pool3d(v, 3, stride=2, padding=1) * 3.0
    c = F.adaptive_max_pool2d(x, (2, 3)) ** 2
    d = F.adaptive_max_pool1d(y, 3) * 2.0
    return a.sum() + b.sum() + c.sum() + d.sum()


def test_prod():
    x, y = A(3, 4), A(4, 3)
    x[1, 2] = 0.0  # one zero in a row: its gradient is the others' product
    y[0, 0] = y[2, 0] = 0.0  # two zeros in a column: all zero there
    check(prods, [x, y], [0, 1])


def test_einsum():
    check(einsums, [A(3, 4), A(4, 2), A(3, 4)], [0, 1, 2])


def test_einsum_diagonal_is_refused():
    def trace(x: Tensor) -> Tensor:
        return torch.einsum("ii->", x)
    with pytest.raises(ember.errors.UnsupportedError, match="diagonal"):
        ember.grad(trace)(A(3, 3))


def test_max_pool3d_and_adaptive_max_pools():
    check(pools, [A(2, 3, 5, 7), A(2, 3, 8), A(1, 2, 4, 5, 6)], [0, 1, 2])


def grouped_convs(x: Tensor, wd: Tensor, wg: Tensor) -> Tensor:
    a = F.conv2d(x, wd, None, 1, 1, 1, 4) ** 2           # depthwise, stride 1
    b = F.conv2d(x, wd, None, 2, 1, 2, 4) * 3.0          # depthwise, strided and dilated
    c = F.conv2d(x, wg, None, 1, (1, 0), 1, 2) ** 2      # two groups
    return a.sum() + b.sum() + c.sum()


def test_depthwise_and_grouped_conv2d():
    check(grouped_convs, [A(2, 4, 7, 6), A(4, 1, 3, 3), A(6, 2, 3, 2)], [0, 1, 2])


def convs3d(x: Tensor, w: Tensor, wg: Tensor, b: Tensor) -> Tensor:
    a = F.conv3d(x, w, b, 1, 1) ** 2
    c = F.conv3d(x, wg, None, (2, 1, 2), (1, 0, 1), (1, 2, 1), 2) * 3.0
    d = F.conv3d(x[0], w, b, 2, 0) ** 2  # unbatched
    return a.sum() + c.sum() + d.sum()


def test_conv3d():
    check(convs3d, [A(2, 4, 4, 5, 5) * 0.3, A(3, 4, 3, 2, 3) * 0.3, A(4, 2, 2, 3, 2) * 0.3, A(3)],
          [0, 1, 2, 3])


def bags(w: Tensor, p: Tensor, idx: Tensor, offs: Tensor, last: Tensor) -> Tensor:
    a = F.embedding_bag(idx, w, offs, mode="sum")
    b = F.embedding_bag(idx, w, offs, mode="mean", padding_idx=1)
    c = F.embedding_bag(idx.view(3, 3), w, mode="mean")
    d = F.embedding_bag(idx, w, last, mode="sum", per_sample_weights=p, include_last_offset=True)
    return (a ** 2).sum() + (b * 3.0).sum() + (c ** 2).sum() + (d ** 2).sum()


def test_embedding_bag():
    idx = np.array([3, 1, 4, 1, 5, 9, 2, 6, 0])
    offs = np.array([0, 2, 2, 5])
    check(bags, [A(10, 3), A(9)], [0, 1], extra=(idx, offs, np.array([0, 2, 2, 9])))


def more_math(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
    p = torch.abs(y) + 1.5  # > 1 for acosh
    a = torch.asinh(x) + torch.acosh(p) + torch.atanh(torch.tanh(x) * 0.9) + torch.exp2(x)
    b = torch.hypot(x, z) * 2.0 + torch.atan2(x, z)
    c = torch.addcmul(x, y, z, value=0.5) ** 2 + torch.addcdiv(z, x, p, value=2.0) ** 2
    d = F.softshrink(x, 0.3) ** 2 + F.hardshrink(y, 0.4) * 3.0 + F.threshold(z, 0.1, -1.0) ** 2
    mx, _ = torch.max(x * y, 1)
    mn = torch.min(y, 0, keepdim=True)[0]
    return a.sum() + b.sum() + c.sum() + d.sum() + (mx ** 2).sum() + (mn * 3.0).sum()


def test_more_math():
    check(more_math, [A(3, 4), A(3, 4), A(3, 4)], [0, 1, 2])


def msorts(x: Tensor, v: Tensor) -> Tensor:
    return (torch.msort(x) * torch.arange(4.0, dtype=x.dtype).unsqueeze(1)).sum() + \
        (torch.msort(v) ** 3).sum()


def diffs(x: Tensor, p: Tensor, q: Tensor) -> Tensor:
    a = torch.diff(x) ** 2
    b = torch.diff(x, n=2, dim=0, prepend=p, append=q) ** 3
    c = torch.diff(x, n=3, dim=1)
    d = torch.diff(x, n=0)
    return a.sum() + b.sum() + (c * c).sum() + d.sum()


def tensordots(a: Tensor, b: Tensor, c: Tensor) -> Tensor:
    x = torch.tensordot(a, b, 1)
    y = torch.tensordot(a, c, ([2, 0], [0, 2]))
    z = torch.tensordot(a, c, dims=[[1], [1]])
    w = torch.tensordot(a, a, 3)
    return (x * x).sum() + (y ** 3).sum() + (z * 2.0).sum() + w


def lrns(x: Tensor, y: Tensor) -> Tensor:
    a = F.local_response_norm(x, 3)
    b = F.local_response_norm(x, 4, alpha=0.3, beta=0.9, k=2.0)
    c = F.local_response_norm(y, 2, alpha=0.5, beta=0.5)
    return (a * a).sum() + (b ** 3).sum() + (c * y).sum()


def test_msort():
    check(msorts, [A(4, 3), A(5)], (0, 1))


def test_diff_with_prepend_and_append():
    check(diffs, [A(4, 5), A(2, 5), A(1, 5)], (0, 1, 2))


def test_tensordot_in_its_three_forms():
    check(tensordots, [A(3, 4, 2), A(2, 3), A(2, 4, 3)], (0, 1, 2))


def test_local_response_norm():
    check(lrns, [A(2, 5, 3), A(2, 3, 2, 2)], (0, 1))


@pytest.mark.parametrize("shape,k,n", [((2, 3, 8, 8), 2, 2), ((2, 3, 9, 7), 2, 2),
                                       ((2, 3, 9, 9), 3, 2), ((2, 3, 7), 2, 1),
                                       ((1, 2, 4, 6, 5), 2, 3)])
def test_tiled_max_pool_backward_ties_and_crops_like_torch(shape, k, n):
    # windows that tile the input (stride = kernel): ties (the zeros of a relu) send the
    # gradient to the first maximum; rows and columns past the last window get none
    from ember.ops.tensor_pool_grad import max_pool_backward
    x = np.maximum(A(*shape), 0.0)
    x.reshape(-1)[::7] = np.nan if n == 1 else 0.0
    tx = torch.tensor(x, requires_grad=True)
    y = getattr(F, f"max_pool{n}d")(tx, k)
    g = A(*y.shape)
    y.backward(torch.tensor(g))
    got = max_pool_backward(g, x, k, None, 0, 1, False, n)
    np.testing.assert_array_equal(got, tx.grad.numpy())


def scatter_adds(x: Tensor, s: Tensor, i: Tensor) -> Tensor:
    a = torch.scatter_add(x, 0, i, s)
    b = x.scatter_add(1, i.t(), torch.tanh(s).t())
    return (a * a).sum() + (b ** 3).sum()


def test_scatter_add_with_repeated_indices():
    i = np.array([[0, 2, 2, 1], [2, 2, 0, 3], [1, 1, 1, 0]])
    check(scatter_adds, [A(4, 4), A(3, 4)], (0, 1), extra=(i,))
