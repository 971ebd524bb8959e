"""Tensor derivative rules: each checked in float64 against central finite differences
(always) and against torch.autograd (when torch is installed)."""

from typing import List

import numpy as np
import pytest

import ember

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor

rng = np.random.default_rng(0)


def A(*shape, lo=None):
    a = rng.standard_normal(shape)
    return np.abs(a) + 0.5 if lo == "pos" else a


def fd_grad(fn, args, i, h=1e-6):
    base = [np.array(a, dtype=np.float64) for a in args]
    out = np.zeros_like(base[i])
    it = np.nditer(base[i], flags=["multi_index"])
    for _ in it:
        idx = it.multi_index
        a = [b.copy() for b in base]
        a[i][idx] += h
        hi = float(fn(*[torch.tensor(x) for x in a]))
        a[i][idx] -= 2 * h
        lo = float(fn(*[torch.tensor(x) for x in a]))
        out[idx] = (hi - lo) / (2 * h)
    return out


def check(fn, args, nums, extra=()):
    """ember's gradient of fn(*args, *extra) w.r.t. args[nums] vs torch and finite diffs."""
    g = ember.grad(fn, argnums=tuple(nums))(*args, *extra)
    tx = [torch.tensor(a, requires_grad=i in nums) for i, a in enumerate(args)]
    out = fn(*tx, *[torch.tensor(e) if isinstance(e, np.ndarray) else e for e in extra])
    out.backward()
    for k, i in enumerate(nums):
        np.testing.assert_allclose(g[k], tx[i].grad.numpy(), rtol=1e-7, atol=1e-9)
        want = fd_grad(lambda *a: fn(*a, *[torch.tensor(e) if isinstance(e, np.ndarray) else e
                                           for e in extra]), args, i)
        np.testing.assert_allclose(g[k], want, rtol=1e-5, atol=1e-6)


def arith(x: Tensor, y: Tensor) -> Tensor:
    return ((x + y) * (x - y) / (y * y + 1.0) + x * 2.0 - 3.0 / (x * x + 1.0)).sum()


def broadcast(x: Tensor, b: Tensor) -> Tensor:
    return (x * b + b - x / (b * b + 2.0)).mean()


def unary(x: Tensor, y: Tensor) -> Tensor:
    return (torch.exp(x) + torch.log(y) + torch.sqrt(y) + torch.sin(x) * torch.cos(x) +
            torch.tanh(x) + torch.sigmoid(x) + torch.rsqrt(y) + torch.reciprocal(y) +
            torch.abs(x) + torch.square(x) + torch.log1p(y) + torch.expm1(x)).sum()


def acts(x: Tensor, y: Tensor) -> Tensor:
    return (F.relu(x) + F.leaky_relu(x, 0.1) + F.silu(x) + F.gelu(x) + F.softplus(x) +
            F.hardtanh(x) + F.relu6(x * 4.0) + F.hardswish(x * 3.0) + F.hardsigmoid(x * 3.0)
            + torch.pow(y, 1.5) + torch.maximum(x, y) + torch.where(x > 0.0, x, y)).sum()


def reductions(x: Tensor, y: Tensor) -> Tensor:
    return (x.sum(1) * y.mean(1)).sum() + x.mean() + torch.logsumexp(x, 1).sum() + \
        x.sum(0, keepdim=True).sum()


def softmaxes(x: Tensor, y: Tensor) -> Tensor:
    return (F.softmax(x, 1) * y).sum() + (F.log_softmax(x, 0) * y).sum()


def shapes(x: Tensor, y: Tensor) -> Tensor:
    a = x.view(6, 2).t().transpose(0, 1).reshape(3, 4)
    b = y.permute(1, 0).flatten().unsqueeze(0).squeeze(0).view(3, 4)
    return (a * b).sum() + (x.expand(2, 3, 4) * 2.0).sum()


def linalg(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    h = F.linear(x, w, b)
    return (torch.matmul(h, w) * x).sum() + torch.mm(x, w.t()).sum()


def scalar_ops(x: Tensor, y: Tensor) -> Tensor:
    return (x * 1.5).sum() + (y / 2.0).sum() + (2.0 - y).sum() + (x - 0.5).sum() + \
        (2.0 / (y * y + 1.0)).sum()


@pytest.mark.parametrize("fn,shapes_,pos", [
    (arith, [(3, 4), (3, 4)], False), (broadcast, [(3, 4), (4,)], False),
    (unary, [(3, 4), (3, 4)], True), (acts, [(3, 4), (3, 4)], False),
    (reductions, [(3, 4), (3, 4)], False), (softmaxes, [(3, 4), (3, 4)], False),
    (shapes, [(3, 4), (4, 3)], False), (scalar_ops, [(2, 3), (2, 3)], False)])
def test_rules(fn, shapes_, pos):
    args = [A(*s, lo="pos" if (pos and i == 1) else None) for i, s in enumerate(shapes_)]
    if fn is acts:
        args[1] = np.abs(args[1]) + 0.5
    check(fn, args, range(len(args)))


def test_linear_matmul():
    check(linalg, [A(5, 3), A(4, 3), A(4)], [0, 1, 2])


def conv_pool(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    y = F.conv2d(x, w, b, 1, 1)
    return (F.max_pool2d(y, 2) ** 2).sum()


def conv_strided(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.conv2d(x, w, b, 2, 1, 1, 2) ** 2).sum()


def test_conv_pool():
    check(conv_pool, [A(2, 3, 6, 6), A(4, 3, 3, 3), A(4)], [0, 1, 2])
    check(conv_strided, [A(2, 4, 7, 7), A(6, 2, 3, 3), A(6)], [0, 1, 2])


def bn(x: Tensor, w: Tensor, b: Tensor, rm: Tensor, rv: Tensor) -> Tensor:
    return (F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5) ** 2).sum()


def test_batch_norm_eval():
    check(bn, [A(4, 3, 2, 2), A(3), A(3)], [0, 1, 2], extra=(A(3), A(3, lo="pos")))


def emb(w: Tensor, idx: Tensor) -> Tensor:
    return (F.embedding(idx, w) ** 2).sum()


def test_embedding():
    check(emb, [A(5, 3)], [0], extra=(np.array([[0, 2], [2, 4]]),))


LOSSES = {
    "mse": lambda x, t: F.mse_loss(x, t),
    "mse_sum": lambda x, t: F.mse_loss(x, t, reduction="sum"),
    "l1": lambda x, t: F.l1_loss(x, t),
    "smooth_l1": lambda x, t: F.smooth_l1_loss(x, t, beta=0.5),
    "huber": lambda x, t: F.huber_loss(x, t, delta=0.7),
    "bce_logits": lambda x, t: F.binary_cross_entropy_with_logits(x, t),
    "kl": lambda x, t: F.kl_div(F.log_softmax(x, 1), t, reduction="batchmean"),
}


def _loss_fn(src):
    ns = {"F": F, "Tensor": Tensor, "torch": torch}
    exec(src, ns)  # noqa: S102 - test code builds small scripted functions
    return ns["f"]


@pytest.mark.parametrize("call", [
    "F.mse_loss(x, t)", "F.mse_loss(x, t, reduction='sum')", "F.l1_loss(x, t)",
    "F.smooth_l1_loss(x, t, beta=0.5)", "F.huber_loss(x, t, delta=0.7)",
    "F.binary_cross_entropy_with_logits(x, t)", "F.binary_cross_entropy(torch.sigmoid(x), t)",
    "F.kl_div(F.log_softmax(x, 1), t, reduction='batchmean')"])
def test_pointwise_losses(call, tmp_path):
    path = tmp_path / "loss_mod.py"
    path.write_text("import torch\nimport torch.nn.functional as F\nfrom torch import Tensor\n"
                    f"def f(x: Tensor, t: Tensor) -> Tensor:\n    return {call}\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location("loss_mod_" + str(abs(hash(call))), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = rng.uniform(0.05, 0.95, (4, 3))
    check(mod.f, [A(4, 3)], [0], extra=(t,))


def ce(x: Tensor, t: Tensor) -> Tensor:
    return F.cross_entropy(x, t, ignore_index=1, label_smoothing=0.2)


def ce_plain(x: Tensor, t: Tensor) -> Tensor:
    return F.cross_entropy(x, t, reduction="sum")


def nll(x: Tensor, t: Tensor) -> Tensor:
    return F.nll_loss(F.log_softmax(x, 1), t, ignore_index=0)


@pytest.mark.parametrize("fn", [ce, ce_plain, nll])
def test_class_losses(fn):
    check(fn, [A(6, 4)], [0], extra=(np.array([0, 1, 2, 3, 1, 2]),))


def indexing(x: Tensor, y: Tensor) -> Tensor:
    a = x[1:, ::2] * 2.0 + x[0].sum() + x[:, 1].sum()
    b = torch.select(y, 1, 2) * torch.narrow(y, 0, 1, 2).sum()
    return (a * a).sum() + (b * b).sum() + (x[1, 2] * y[-1, 0]).sum()


def joins(x: Tensor, y: Tensor) -> Tensor:
    c = torch.cat([x, y * 2.0], 0)
    s = torch.stack([x, y], 1)
    return (c * c).sum() + (s * s * s).sum()


def gathers(x: Tensor, y: Tensor) -> Tensor:
    idx = torch.argmax(y, 1, True)
    return (torch.gather(x, 1, idx) ** 2).sum() + (x[torch.argmax(x, 0)] * 3.0).sum()


def norms(x: Tensor, w: Tensor) -> Tensor:
    return (F.layer_norm(x, [4], w, w * 0.5) ** 2).sum() + torch.var(x, 1).sum() + \
        torch.var(x).sum() + torch.max(x).sum()


def pools(x: Tensor, w: Tensor) -> Tensor:
    return (F.adaptive_avg_pool2d(x, 1) ** 2).sum() + (F.adaptive_avg_pool2d(x, [2, 3]) *
                                                       w).sum()


@pytest.mark.parametrize("fn,shapes_", [
    (indexing, [(3, 4), (4, 3)]), (joins, [(2, 3), (2, 3)]), (gathers, [(3, 4), (3, 4)]),
    (norms, [(3, 4), (4,)]), (pools, [(2, 2, 4, 5), (2, 3)])])
def test_index_join_norm_pool_rules(fn, shapes_):
    check(fn, [A(*s) for s in shapes_], [0] if fn is gathers else range(len(shapes_)))


def test_mul_conv2d():
    from ember.ops import get
    k = get("tensor.mul_conv2d").kernel
    # the fused operator of freeze (conv2d of a product with a 1x1 weight), through its rule
    import ember.autodiff  # noqa: F401  (registers the rules)
    from ember.ops.registry import VJP
    assert "tensor.mul_conv2d" in VJP
    x, s, w = A(2, 4, 3, 3), A(2, 4, 1, 1), A(5, 4, 1, 1)
    want = F.conv2d(torch.tensor(x * s), torch.tensor(w))
    np.testing.assert_allclose(k(x, s, w, None, 1, 0, 1, 1), want.numpy(), rtol=1e-12)


def conv1(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.conv1d(x, w, b, 2, 1, 1, 2) ** 2).sum() + (F.conv1d(x, w[:, :, :2], None, 1, 0, 1, 2) ** 2).sum()


def test_conv1d():
    check(conv1, [A(2, 4, 9), A(6, 2, 3), A(6)], [0, 1, 2])


def more_pointwise(x: Tensor, y: Tensor) -> Tensor:
    z = torch.tanh(x) * 0.9  # inside asin and acos domain
    return (torch.tan(z) + torch.asin(z) + torch.acos(z) + torch.erfc(x) + F.logsigmoid(x) +
            F.softsign(x) + torch.clamp_min(x, 0.1) + torch.clamp_max(x, -0.1) + F.elu(x) +
            x.masked_fill(y > 0.0, 2.0)).sum()


def more_shapes(x: Tensor, y: Tensor) -> Tensor:
    return (x.T * y).sum() + (x * y.mT).sum() + (torch.flip(x, [0]) * y.T).sum() + \
        (torch.movedim(x, 0, 1) * torch.cumsum(y, 1)).sum() + torch.amax(x, 1).sum() + \
        torch.std(y, 0).sum() + torch.amax(x).sum()


@pytest.mark.parametrize("fn", [more_pointwise, more_shapes])
def test_more_rules(fn):
    check(fn, [A(3, 4), A(4, 3) if fn is more_shapes else A(3, 4)],
          [0, 1] if fn is more_shapes else [0])


def more_acts(x: Tensor, y: Tensor) -> Tensor:
    return (F.mish(x) + F.selu(x) + F.celu(x, 0.7) + F.tanhshrink(x) +
            F.gelu(x, approximate="tanh") * y).sum()


def more_products(x: Tensor, a: Tensor, b: Tensor) -> Tensor:
    m = torch.addmm(x, a, b, beta=0.5, alpha=2.0) + torch.addmm(x, a, b)
    t = torch.tril(m, -1) * 2.0 + torch.triu(m, 1) + torch.roll(m, 1, 0) + \
        torch.roll(m, [2, -1], [0, 1])
    return (t * t).sum()


def batched_products(x: Tensor, a: Tensor, b: Tensor) -> Tensor:
    return (torch.baddbmm(x, a, b, beta=1.5, alpha=0.5) ** 2).sum()


def test_activations_triangles_rolls_and_fused_products():
    check(more_acts, [A(3, 4), A(3, 4)], [0, 1])
    check(more_products, [A(4, 5), A(4, 3), A(3, 5)], [0, 1, 2])
    check(batched_products, [A(2, 3, 4), A(2, 3, 2), A(2, 2, 4)], [0, 1, 2])


def gn(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.group_norm(x, 2, w, b, 1e-5) ** 3).sum() + (F.group_norm(x, 3) ** 2).sum()


def inorm(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.instance_norm(x, weight=w, bias=b) ** 3).sum()


def inorm_running(x: Tensor, w: Tensor, b: Tensor, rm: Tensor, rv: Tensor) -> Tensor:
    return (F.instance_norm(x, rm, rv, w, b, use_input_stats=False) ** 2).sum()


def test_group_and_instance_norm():
    check(gn, [A(2, 6, 3, 2), A(6), A(6)], [0, 1, 2])
    check(inorm, [A(2, 3, 5), A(3), A(3)], [0, 1, 2])
    check(inorm_running, [A(2, 3, 4, 2), A(3), A(3)], [0, 1, 2], extra=(A(3), A(3, lo="pos")))


def avg_pools(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
    a = F.avg_pool2d(x, 3, 2, 1) ** 2
    b = F.avg_pool2d(x, [2, 3], [1, 2], [1, 0], True, False) ** 2
    c = F.avg_pool2d(x, 2, divisor_override=3) ** 2
    d = F.avg_pool1d(y, 3, 2, 1, True, False) ** 2
    f = F.avg_pool3d(z, 2, 1, 1) ** 2
    return a.sum() + b.sum() + c.sum() + d.sum() + f.sum()


def test_avg_pools():
    check(avg_pools, [A(2, 3, 7, 6), A(2, 3, 8), A(1, 2, 3, 4, 3)], [0, 1, 2])


def tconv(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.conv_transpose2d(x, w, b, 2, 1, 1) ** 2).sum()


def tconv_grouped(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.conv_transpose2d(x, w, b, [1, 2], [0, 1], [0, 1], 2, [2, 1]) ** 2).sum()


def tconv1(x: Tensor, w: Tensor, b: Tensor) -> Tensor:
    return (F.conv_transpose1d(x, w, b, 3, 1, 2) ** 2).sum()


def test_transposed_convolutions():
    check(tconv, [A(2, 3, 4, 3), A(3, 2, 3, 3), A(2)], [0, 1, 2])
    check(tconv_grouped, [A(1, 4, 3, 4), A(4, 3, 2, 3), A(6)], [0, 1, 2])
    check(tconv1, [A(2, 2, 5), A(2, 3, 4), A(3)], [0, 1, 2])


def reshuffles(x: Tensor, y: Tensor) -> Tensor:
    a = F.pixel_shuffle(x, 2) ** 2
    b = F.pixel_unshuffle(a, 2) * 3.0
    c = (F.pad(y, [1, 2, 0, 1]) ** 2).sum() + (F.pad(y, [0, 1, 2, 0], value=0.5) ** 3).sum()
    d = F.pad(y, [-1, 0, 1, -1]) ** 2
    return a.sum() + (b * b).sum() + c.sum() + d.sum()


def selects_and_tiles(x: Tensor, y: Tensor, idx: Tensor) -> Tensor:
    a = torch.index_select(x, 1, idx) ** 2
    b = y.repeat(2, 1, 3) ** 2
    n = F.normalize(x, dim=1) * x
    return a.sum() + b.sum() + n.sum()


def test_shuffles_pads_gathers_tiles_and_normalize():
    check(reshuffles, [A(2, 8, 2, 3), A(2, 3, 4)], [0, 1])
    check(selects_and_tiles, [A(3, 4), A(2, 3)], [0, 1], extra=(np.array([0, 3, 3, 1]),))


def cosines_and_1d_pools(x: Tensor, y: Tensor, z: Tensor) -> Tensor:
    c = F.cosine_similarity(x, y, 1) * 2.0 + F.cosine_similarity(x, y[0], 1)
    m = (F.max_pool1d(z, 3, 2, 1) ** 2).sum() + (F.max_pool1d(z, 2) ** 3).sum()
    a = F.adaptive_avg_pool1d(z, 3) ** 3
    return c.sum() + m.sum() + a.sum()


def test_cosines_and_1d_pools():
    check(cosines_and_1d_pools, [A(3, 4), A(3, 4), A(2, 3, 7)], [0, 1, 2])


def norms_and_prelu(x: Tensor, w: Tensor, v: Tensor) -> Tensor:
    a = torch.norm(x) + torch.norm(x, 2, [1]).sum() * 2.0 + torch.norm(x, dim=0, keepdim=True).sum()
    y = x.view(2, 3, 2)
    return a + (F.prelu(y, w) ** 2).sum() + (F.prelu(x, v) ** 3).sum()


def test_norms_and_prelu():
    check(norms_and_prelu, [A(3, 4), A(3), A(1)], [0, 1, 2])


def appended(x: Tensor, y: Tensor) -> Tensor:
    feats: List[Tensor] = []
    feats.append(x * 2.0)
    feats.append(y * x)
    return (torch.stack(feats, dim=1) ** 2).sum() + (torch.cat(feats, 0) ** 3).sum()


def appended_in_a_loop(x: Tensor) -> Tensor:
    feats: List[Tensor] = []
    for i in range(3):
        x = torch.relu(x) + x * float(i + 1)
        feats.append(x)
    return (torch.stack(feats, dim=1) ** 2).sum()


def test_lists_built_by_appends():
    """Straight-line appends are the list's items; a list built in a loop has a list of
    adjoints (test_grad_lists.py)."""
    check(appended, [A(3, 4), A(3, 4)], [0, 1])
    check(appended_in_a_loop, [A(3, 4)], [0])


def pads_and_glu(x: Tensor, y: Tensor) -> Tensor:
    a = F.pad(x, [2, 1, 1, 2], mode="reflect") ** 2
    b = F.pad(x, [3, 0, 0, 1], mode="replicate") ** 3
    c = F.pad(x, [1, 2, 2, 1], mode="circular") * 2.0
    d = F.pad(y, [2, 3], mode="reflect") ** 2
    return a.sum() + b.sum() + (c * c).sum() + d.sum() + (F.glu(x, 1) ** 2).sum() + \
        (F.glu(x, -2) ** 3).sum()


def test_reflect_replicate_circular_pads_and_glu():
    check(pads_and_glu, [A(2, 4, 4, 6), A(2, 3, 5)], [0, 1])


def resamples(x: Tensor, y: Tensor) -> Tensor:
    a = F.interpolate(x, scale_factor=2.0, mode="nearest") ** 2
    b = F.interpolate(x, size=[5, 7], mode="bilinear", align_corners=False) ** 2
    c = F.interpolate(x, size=[4, 9], mode="bilinear", align_corners=True) ** 3
    d = F.interpolate(x, size=[6, 5], mode="bicubic", align_corners=False) ** 2
    f = F.interpolate(y, scale_factor=1.5, mode="linear") ** 2
    h = F.interpolate(x, size=[5, 4], mode="nearest-exact") ** 2
    k = F.interpolate(x, size=[2, 3], mode="area") ** 2
    return a.sum() + b.sum() + c.sum() + d.sum() + f.sum() + h.sum() + k.sum()


def test_interpolate():
    check(resamples, [A(2, 2, 3, 4), A(2, 3, 5)], [0, 1])
