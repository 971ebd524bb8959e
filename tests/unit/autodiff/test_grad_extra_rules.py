"""Rules of ops/vjp_extra.py: scaled_dot_product_attention, rms_norm, cumprod, var/std
with a correction, tile/hstack/vstack, diag, lerp, sort/topk/kthvalue/median values,
scatter/take/masked_select, repeat_interleave, nan_to_num, frac, softmin, vector_norm,
pairwise_distance: float64 against torch.autograd and central differences
(test_grad_tensor.check)."""

import numpy as np
import pytest

import ember
from tests.unit.autodiff.test_grad_tensor import A, check

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor


def attention(q: Tensor, k: Tensor, v: Tensor, m: Tensor) -> Tensor:
    a = F.scaled_dot_product_attention(q, k, v)
    b = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    c = F.scaled_dot_product_attention(q, k, v, attn_mask=m, scale=0.3)
    d = F.scaled_dot_product_attention(q, k, v, attn_mask=m > 0.0)
    return (a * a).sum() + (b * c).sum() + torch.tanh(c).sum() + (d ** 2).mean()


def test_scaled_dot_product_attention():
    m = A(4, 5)
    m[:, 0] = 1.0  # every row keeps a key under the bool mask
    check(attention, [A(2, 4, 3), A(2, 5, 3), A(2, 5, 3), m], [0, 1, 2, 3])


def rms(x: Tensor, w: Tensor) -> Tensor:
    a = F.rms_norm(x, [4], w, 1e-5)
    b = F.rms_norm(x, [3, 4])
    return (a * torch.tanh(x)).sum() + (b ** 3).sum()


def test_rms_norm():
    check(rms, [A(2, 3, 4), A(4)], [0, 1])


def cumprods(x: Tensor) -> Tensor:
    return (torch.cumprod(x, 1) * torch.arange(4.0)).sum() + torch.cumprod(x, 0).sum()


def test_cumprod_exact_at_zeros():
    x = A(3, 4)
    x[1, 1] = 0.0
    x[2, 0] = x[2, 2] = 0.0
    check(cumprods, [x], [0])


def variances(x: Tensor) -> Tensor:
    return torch.var(x, 1, correction=0).sum() + torch.std(x, [0, 1], correction=2).sum() + \
        x.var(unbiased=False) + x.std() + torch.var(x, 0, correction=1, keepdim=True).sum()


def test_var_and_std_with_a_correction():
    check(variances, [A(3, 4, 2)], [0])


def joins(x: Tensor, y: Tensor, v: Tensor) -> Tensor:
    a = torch.tile(x, (2, 1, 3)) * torch.arange(6.0)
    b = torch.hstack([x[0], y[0]]) + torch.hstack([v, v * 2.0]).sum()
    c = torch.vstack([v, x[0, 0], v * v]) ** 2
    d = torch.vstack([x[0], y[0, :, :2]])
    return a.sum() + (b ** 2).sum() + c.sum() + (d * d).sum() + x.tile((2,)).sum()


def test_tile_hstack_vstack():
    check(joins, [A(2, 3, 2), A(2, 3, 4), A(2)], [0, 1, 2])


def diags(v: Tensor, m: Tensor, r: Tensor) -> Tensor:
    return (torch.diag(v) ** 2).sum() + (torch.diag(v, 1) * 3.0).sum() + \
        (torch.diag(m) ** 3).sum() + torch.diag(m, -1).sum() + (torch.diag(r, 1) ** 2).sum() + \
        (torch.diag(r, -1) ** 2).sum()


def test_diag():
    check(diags, [A(3), A(4, 4), A(3, 5)], [0, 1, 2])


def lerps(a: Tensor, b: Tensor, w: Tensor, s: float) -> Tensor:
    return (torch.lerp(a, b, w) ** 2).sum() + (torch.lerp(a, b, s) ** 3).sum() + \
        torch.lerp(a, b, 0.25).sum()


def test_lerp():
    check(lerps, [A(2, 3), A(3), A(2, 3)], [0, 1, 2], extra=(0.7,))


def sorts(x: Tensor) -> Tensor:
    a = torch.sort(x, 1)[0] * torch.arange(4.0)
    b = torch.sort(x, 0, descending=True)[0] * torch.arange(3.0).unsqueeze(1)
    c = torch.topk(x, 2, 1)[0] ** 2
    d = torch.topk(x, 2, 0, largest=False)[0] * 3.0
    e = torch.kthvalue(x, 2, 1)[0] ** 2 + torch.kthvalue(x, 1, 0, keepdim=True)[0].sum()
    f = torch.median(x, 1)[0] ** 3
    return a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum()


def test_sort_topk_kthvalue_median_values():
    check(sorts, [A(3, 4)], [0])


def scatters(x: Tensor, src: Tensor, i: Tensor, j: Tensor, m: Tensor) -> Tensor:
    a = torch.scatter(x, 1, i, src) ** 2
    b = x.scatter(0, j, 0.5) * x
    c = torch.take(x, torch.tensor([0, 5, 5, 11])) ** 2
    d = torch.masked_select(x, m > 0.0) ** 3
    return a.sum() + b.sum() + c.sum() + d.sum()


def test_scatter_take_masked_select():
    i = np.array([[2, 0], [1, 3], [0, 1]])
    j = np.array([[0, 2, 1, 0]])
    check(scatters, [A(3, 4), A(3, 2)], [0, 1], extra=(i, j, A(3, 4)))


def repeats(x: Tensor) -> Tensor:
    return (torch.repeat_interleave(x, 2) * torch.arange(12.0)).sum() + \
        (x.repeat_interleave(3, 1) ** 2).sum() + (torch.repeat_interleave(x, 2, 0) ** 3).sum()


def test_repeat_interleave():
    check(repeats, [A(2, 3)], [0])


def elementwise(x: Tensor) -> Tensor:
    return (torch.nan_to_num(torch.log(x)) ** 2).sum() + (torch.frac(x * 3.0) ** 2).sum() + \
        (F.softmin(x, 1) * torch.arange(4.0)).sum() + F.softmin(x, 0).pow(2).sum()


def test_nan_to_num_frac_softmin():
    x = A(3, 4)
    x[0, 0] = -1.3  # log: NaN, replaced by 0 and no gradient
    check(elementwise, [x], [0])


def norms(x: Tensor, y: Tensor) -> Tensor:
    return x.norm(1) + x.norm(1, 1).sum() + (x.norm(3, 0, keepdim=True) ** 2).sum() + \
        torch.norm(x, 0.5) + F.pairwise_distance(x, y).sum() + \
        F.pairwise_distance(x, y, 1.0, keepdim=True).sum() + \
        (F.pairwise_distance(x, y[0], 3.0) ** 2).sum()


def test_p_norms_and_pairwise_distance():
    check(norms, [A(3, 4), A(3, 4)], [0, 1])


def test_attention_with_dropout_is_refused_by_name():
    def f(q: Tensor) -> Tensor:
        return F.scaled_dot_product_attention(q, q, q, dropout_p=0.1).sum()
    with pytest.raises(ember.errors.CompileError, match="dropout"):
        ember.grad(f)


VECTOR_NORM_IR = """export func @f(%x: tensor) -> tensor {
  %p = const ORD : f64
DIMS
  %d = list.new ITEMS : list<i64>
  %k = const KEEP : bool
  %n = const none : none
  %t = widen %n : optional<dtype>
  %v = tensor.vector_norm %x, %p, %d, %k, %t : tensor
  %f = const false : bool
  %s = tensor.sum %v, %n, %f, %t : tensor
  return %s
}
"""


def _vector_norm_ir(ord_, dims, keep) -> str:
    consts = "\n".join(f"  %d{i} = const {d} : i64" for i, d in enumerate(dims))
    items = ", ".join(f"%d{i}" for i in range(len(dims)))
    return VECTOR_NORM_IR.replace("ORD", repr(ord_)).replace("DIMS", consts) \
        .replace("ITEMS", items).replace("KEEP", "true" if keep else "false")


@pytest.mark.parametrize("ord_,dims,keep", [(2.0, [1], False), (1.0, [0, 1], True),
                                            (3.0, [0], False), (0.5, [1], True),
                                            (float("inf"), [1], False)])
def test_vector_norm(ord_, dims, keep):
    # torch.linalg.vector_norm is not reachable from scripts yet: the rule on IR text
    from ember.api.core import ScriptFunction
    from ember.autodiff import value_and_grad_func
    from ember.ir.parser import parse_module

    module = parse_module(_vector_norm_ir(ord_, dims, keep))
    value_and_grad_func(module, "f", 0, "f$vg", True)
    module.entries = ["f$vg"]
    vg = ScriptFunction(module, "f$vg")
    x = A(3, 4)
    value, g = vg(x)
    tx = torch.tensor(x, requires_grad=True)
    out = torch.linalg.vector_norm(tx, ord_, dims, keep).sum()
    out.backward()
    assert float(value) == pytest.approx(out.item(), rel=1e-12)
    np.testing.assert_allclose(g, tx.grad.numpy(), rtol=1e-7, atol=1e-9)
