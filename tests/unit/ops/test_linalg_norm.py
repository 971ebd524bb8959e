"""Matrix products, normalization, embedding and dropout against torch."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops
from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
RNG = np.random.default_rng(3)


def rand(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                   ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)), ((5, 2, 3), (5, 3, 4)),
                                   ((1, 2, 3), (5, 3, 4)), ((2, 1, 2, 3), (3, 3, 2)),
                                   ((4, 3), (2, 3, 5))])
def test_matmul_shapes(sa, sb):
    a, b = rand(*sa), rand(*sb)
    same(run("tensor.matmul", a, b), torch.matmul(to_torch(a), to_torch(b)), rtol=1e-5,
         atol=1e-5)


def test_matmul_errors_and_variants():
    a, b = rand(3, 4), rand(5, 6)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        run("tensor.matmul", a, b)
    with pytest.raises(RuntimeError, match="same dtype"):
        run("tensor.matmul", a, rand(4, 2, dtype=np.float64))
    with pytest.raises(RuntimeError, match="1D"):
        run("tensor.matmul", np.array(1.0, np.float32), a)
    with pytest.raises(RuntimeError, match="2D"):
        run("tensor.mm", rand(2, 3, 4), rand(4, 2))
    x3, y3 = rand(2, 3, 4), rand(2, 4, 5)
    same(run("tensor.bmm", x3, y3), torch.bmm(to_torch(x3), to_torch(y3)), atol=1e-5)
    v = rand(4)
    same(run("tensor.mv", a, v), torch.mv(to_torch(a), to_torch(v)), atol=1e-5)
    same(run("tensor.dot", v, v), torch.dot(to_torch(v), to_torch(v)), atol=1e-5)
    same(run("tensor.outer", v, v[:2].copy()), torch.outer(to_torch(v), to_torch(v[:2].copy())))
    ai = np.arange(6).reshape(2, 3)
    same(run("tensor.matmul", ai, ai.T.copy()), to_torch(ai) @ to_torch(ai.T.copy()))


@pytest.mark.parametrize("shape", [(4,), (2, 4), (3, 2, 4)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear(shape, bias):
    x, w, b = rand(*shape), rand(5, 4), rand(5) if bias else None
    same(run("tensor.linear", x, w, b), F.linear(to_torch(x), to_torch(w), to_torch(b)),
         atol=1e-5)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        run("tensor.linear", x, rand(5, 3), b)


@pytest.mark.parametrize("xshape,out", [((32, 128), 512), ((1, 32, 128), 512),
                                        ((2, 16, 512), 128), ((48, 128), 384)])
def test_frozen_linear_in_small_column_blocks(xshape, out):
    from ember.ops.tensor_linalg import _block_width, linear, weight_t
    w, b = rand(out, xshape[-1]), rand(out)
    fw = np.frombuffer(w.tobytes(), w.dtype).reshape(w.shape)  # as loaded from an artifact
    rows = rand(int(np.prod(xshape[:-1])), xshape[-1])
    assert _block_width(rows, weight_t(fw)) and not _block_width(rows[:4], weight_t(fw))
    for x in (rand(*xshape), rand(*xshape[::-1]).T):  # contiguous, then a transposed view
        got = linear(x, fw, b)
        assert got.shape == x.shape[:-1] + (out,) and got.dtype == np.float32
        np.testing.assert_allclose(got, x @ w.T + b, rtol=1e-5, atol=1e-4)


def test_addmm_baddbmm_einsum():
    c, a, b = rand(2, 4), rand(2, 3), rand(3, 4)
    same(run("tensor.addmm", c, a, b, 0.5, 2.0),
         torch.addmm(to_torch(c), to_torch(a), to_torch(b), beta=0.5, alpha=2.0), atol=1e-5)
    c3, a3, b3 = rand(2, 2, 4), rand(2, 2, 3), rand(2, 3, 4)
    same(run("tensor.baddbmm", c3, a3, b3, 1, 1),
         torch.baddbmm(to_torch(c3), to_torch(a3), to_torch(b3)), atol=1e-5)
    same(run("tensor.einsum2", "bij,bjk->bik", a3, b3),
         torch.einsum("bij,bjk->bik", to_torch(a3), to_torch(b3)), atol=1e-5)
    same(run("tensor.einsum", "ij->ji", [a]), torch.einsum("ij->ji", to_torch(a)))


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 4, 4)])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_eval(shape, affine):
    x = rand(*shape)
    c = shape[1]
    mean, var = rand(c), np.abs(rand(c)) + 0.5
    w, b = (rand(c), rand(c)) if affine else (None, None)
    want = F.batch_norm(to_torch(x), to_torch(mean), to_torch(var), to_torch(w), to_torch(b),
                        False, 0.1, 1e-3)
    same(run("tensor.batch_norm", x, mean, var, w, b, False, 0.1, 1e-3), want, atol=1e-5)


def test_batch_norm_training_updates_running_stats():
    x = rand(4, 3, 5)
    rm, rv = np.zeros(3, np.float32), np.ones(3, np.float32)
    tm, tv = to_torch(rm), to_torch(rv)
    want = F.batch_norm(to_torch(x), tm, tv, None, None, True, 0.3, 1e-5)
    got = ops.get("tensor.batch_norm").kernel(x, rm, rv, None, None, True, 0.3, 1e-5)
    same(got, want, atol=1e-5)
    same(rm, tm, atol=1e-6)
    same(rv, tv, atol=1e-6)


@pytest.mark.parametrize("normalized", [[6], [4, 6]])
def test_layer_norm(normalized):
    x = rand(2, 4, 6) * 3 + 1
    w, b = rand(*normalized), rand(*normalized)
    same(run("tensor.layer_norm", x, normalized, w, b, 1e-5),
         F.layer_norm(to_torch(x), normalized, to_torch(w), to_torch(b)), atol=2e-5)
    same(run("tensor.layer_norm", x, normalized, None, None, 1e-5),
         F.layer_norm(to_torch(x), normalized), atol=2e-5)
    for wb in ((w, None), (None, b)):
        tw, tb = (None if a is None else to_torch(a) for a in wb)
        same(run("tensor.layer_norm", x, normalized, *wb, 1e-5),
             F.layer_norm(to_torch(x), normalized, tw, tb), atol=2e-5)
    with pytest.raises(RuntimeError, match="normalized_shape"):
        run("tensor.layer_norm", x, [5], None, None, 1e-5)
    far = x + 1000.0  # a large mean must not cost precision in the variance
    same(run("tensor.layer_norm", far, normalized, w, b, 1e-5),
         F.layer_norm(to_torch(far), normalized, to_torch(w), to_torch(b)), atol=2e-4)


def test_group_instance_norm_and_normalize():
    x = rand(2, 6, 3, 3)
    w, b = rand(6), rand(6)
    same(run("tensor.group_norm", x, 3, w, b, 1e-5),
         F.group_norm(to_torch(x), 3, to_torch(w), to_torch(b)), atol=2e-5)
    with pytest.raises(RuntimeError, match="divisible"):
        run("tensor.group_norm", x, 4, None, None, 1e-5)
    same(run("tensor.instance_norm", x, None, None, w, b, True, 0.1, 1e-5),
         F.instance_norm(to_torch(x), weight=to_torch(w), bias=to_torch(b)), atol=2e-5)
    for p, dim in ((2.0, 1), (1.0, -1), (3.0, 0)):
        same(run("tensor.normalize", x, p, dim, 1e-12),
             F.normalize(to_torch(x), p, dim), atol=1e-6)


def test_embedding():
    w = rand(10, 4)
    idx = np.array([[1, 9], [0, 1]])
    same(run("tensor.embedding", idx, w, None, None, 2.0, False, False),
         F.embedding(to_torch(idx), to_torch(w)))
    same(run("tensor.embedding", idx, w, 0, None, 2.0, False, False),
         F.embedding(to_torch(idx), to_torch(w), padding_idx=0))
    with pytest.raises(IndexError, match="index out of range"):
        run("tensor.embedding", np.array([10]), w, None, None, 2.0, False, False)
    with pytest.raises(IndexError, match="index out of range"):
        run("tensor.embedding", np.array([-1]), w, None, None, 2.0, False, False)
    with pytest.raises(RuntimeError, match="indices"):
        run("tensor.embedding", np.array([1.0]), w, None, None, 2.0, False, False)


def test_dropout():
    x = np.ones((200, 50), np.float32)
    assert run("tensor.dropout", x, 0.5, False, False) is not None
    assert ops.get("tensor.dropout").kernel(x, 0.5, False, False) is x  # eval: identity
    y = run("tensor.dropout", x, 0.25, True, False)
    kept = y != 0
    assert 0.65 < kept.mean() < 0.85
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    z = run("tensor.dropout_channels", np.ones((4, 50, 3, 3), np.float32), 0.5, True, False)
    per_channel = z.reshape(4, 50, 9)
    assert ((per_channel == 0).all(axis=2) | (per_channel != 0).all(axis=2)).all()
    with pytest.raises(ValueError, match="probability"):
        run("tensor.dropout", x, 1.5, False, False)
    assert ops.get("tensor.alpha_dropout").kernel(x, 0.5, False, False) is x


def test_batch_norm_with_frozen_parameters_uses_the_cache_safely():
    from ember.ops import tensor_common

    def frozen(a):
        return np.frombuffer(a.tobytes(), a.dtype).reshape(a.shape)

    x = rand(2, 4, 3, 3)
    mean, var, w, b = (frozen(p) for p in (rand(4), np.abs(rand(4)) + 0.5, rand(4), rand(4)))
    assert all(tensor_common.frozen(p) for p in (mean, var, w, b))
    want = F.batch_norm(to_torch(x), to_torch(mean.copy()), to_torch(var.copy()),
                        to_torch(w.copy()), to_torch(b.copy()), False, 0.1, 1e-5)
    for _ in range(2):
        same(run("tensor.batch_norm", x, mean, var, w, b, False, 0.1, 1e-5), want, atol=1e-5)
    other_eps = F.batch_norm(to_torch(x), to_torch(mean.copy()), to_torch(var.copy()),
                             to_torch(w.copy()), to_torch(b.copy()), False, 0.1, 0.5)
    same(run("tensor.batch_norm", x, mean, var, w, b, False, 0.1, 0.5), other_eps, atol=1e-5)


@pytest.mark.parametrize("shape,normalized", [((2, 3, 4), (4,)), ((2, 3, 4), (3, 4)),
                                              ((5,), 5)])
@pytest.mark.parametrize("eps", [None, 1e-3])
def test_rms_norm(shape, normalized, eps):
    x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
    ns = (normalized,) if isinstance(normalized, int) else normalized
    w = np.random.default_rng(5).standard_normal(ns).astype(np.float32)
    for weight in (w, None):
        same(run("tensor.rms_norm", x, normalized, weight, eps),
             torch.nn.functional.rms_norm(to_torch(x), list(ns), to_torch(weight), eps),
             rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="normalized_shape"):
        run("tensor.rms_norm", x, (7,), None, eps)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("shape", [(2, 6, 4), (2, 6, 3, 4), (1, 3, 2, 2, 2)])
def test_local_response_norm(size, shape):
    x = np.random.default_rng(6).standard_normal(shape).astype(np.float32) * 3
    same(run("tensor.local_response_norm", x, size, 1e-2, 0.75, 2.0),
         torch.nn.functional.local_response_norm(to_torch(x), size, 1e-2, 0.75, 2.0),
         rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="3D or higher"):
        run("tensor.local_response_norm", x.reshape(x.shape[0], -1), size, 1e-4, 0.75, 1.0)


OFFSETS = [([0, 3, 3, 7], False), ([0, 3, 3, 7, 10], True), ([0, 10], False), ([0, 2, 10, 10],
                                                                                False)]


@pytest.mark.parametrize("offsets,last", OFFSETS)
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 4])
def test_embedding_bag(offsets, last, mode, padding_idx):
    w = rand(10, 4)
    idx = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0, 0])
    offs = np.array(offsets)
    psw = rand(10) if mode == "sum" else None
    same(run("tensor.embedding_bag", idx, w, offs, None, 2.0, False, mode, False, psw, last,
             padding_idx),
         F.embedding_bag(to_torch(idx), to_torch(w), to_torch(offs), mode=mode,
                         per_sample_weights=to_torch(psw), include_last_offset=last,
                         padding_idx=padding_idx), rtol=1e-5, atol=1e-6)
    idx2 = idx.reshape(2, 5)
    same(run("tensor.embedding_bag", idx2, w, None, None, 2.0, False, mode, False, None, False,
             padding_idx),
         F.embedding_bag(to_torch(idx2), to_torch(w), mode=mode, padding_idx=padding_idx),
         rtol=1e-5, atol=1e-6)


def test_embedding_bag_errors():
    w, idx = rand(10, 4), np.arange(6)
    with pytest.raises(ValueError, match="offsets has to be a 1D Tensor"):
        run("tensor.embedding_bag", idx, w, None, None, 2.0, False, "sum", False, None, False,
            None)
    with pytest.raises(ValueError, match="offsets has to be None"):
        run("tensor.embedding_bag", idx.reshape(2, 3), w, np.array([0, 1]), None, 2.0, False,
            "sum", False, None, False, None)
    with pytest.raises(NotImplementedError, match="per_sample_weights"):
        run("tensor.embedding_bag", idx, w, np.array([0, 2]), None, 2.0, False, "mean", False,
            rand(6), False, None)
    with pytest.raises(IndexError, match="out of range"):
        run("tensor.embedding_bag", idx + 5, w, np.array([0, 2]), None, 2.0, False, "sum",
            False, None, False, None)
