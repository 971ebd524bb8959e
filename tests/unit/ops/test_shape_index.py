"""Shape, view, join/split, indexing and creation operators against torch, including
view aliasing, index assignment and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops
from ember.ops.tensor_index import build_index
from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def test_view_reshape_and_errors():
    for shape in ([4, 6], [-1, 4], [2, -1, 2], [24], [1, 2, 3, 4]):
        same(run("tensor.view", X, shape), to_torch(X).reshape(shape))
    with pytest.raises(RuntimeError, match=r"shape '\[5, 3\]' is invalid for input of size 24"):
        run("tensor.view", X, [5, 3])
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        run("tensor.view", X, [-1, -1])
    v = ops.get("tensor.view").kernel(X.copy(), [6, 4])
    assert v.base is not None  # a view, as in torch
    same(run("tensor.view_as", X, np.zeros((4, 6))), to_torch(X).view(4, 6))


def test_dim_ops():
    t = to_torch(X)
    same(run("tensor.permute", X, [2, 0, 1]), t.permute(2, 0, 1))
    same(run("tensor.permute", X, [-1, 0, 1]), t.permute(-1, 0, 1))
    same(run("tensor.transpose", X, 0, -1), t.transpose(0, -1))
    same(run("tensor.t", X[0]), t[0].t())
    same(run("tensor.t", X[0, 0]), t[0, 0].t())
    same(run("tensor.T", X[0]), t[0].T)
    same(run("tensor.mT", X), t.mT)
    same(run("tensor.movedim", X, 0, 2), torch.movedim(t, 0, 2))
    with pytest.raises(RuntimeError, match="<= 2 dimensions"):
        run("tensor.t", X)
    with pytest.raises(RuntimeError, match="permute"):
        run("tensor.permute", X, [0, 1])
    with pytest.raises(IndexError, match="out of range"):
        run("tensor.transpose", X, 0, 3)


def test_flatten_unflatten_squeeze_unsqueeze():
    t = to_torch(X)
    for s, e in ((0, -1), (1, 2), (0, 1), (2, 2)):
        same(run("tensor.flatten", X, s, e), torch.flatten(t, s, e))
    same(run("tensor.flatten", np.array(3.0, np.float32), 0, -1), torch.flatten(torch.tensor(3.0)))
    same(run("tensor.unflatten", X, 2, [2, -1]), t.unflatten(2, (2, -1)))
    y = X.reshape(1, 2, 1, 12)
    ty = to_torch(y)
    same(run("tensor.squeeze", y, None), ty.squeeze())
    same(run("tensor.squeeze", y, 2), ty.squeeze(2))
    same(run("tensor.squeeze", y, 1), ty.squeeze(1))
    same(run("tensor.squeeze_dims", y, [0, 2]), ty.squeeze((0, 2)))
    for d in (0, 3, -1, -4):
        same(run("tensor.unsqueeze", X, d), t.unsqueeze(d))
    with pytest.raises(IndexError):
        run("tensor.unsqueeze", X, 4)


def test_expand_repeat_tile_flip_roll():
    x = np.arange(3, dtype=np.int64).reshape(3, 1)
    t = to_torch(x)
    same(run("tensor.expand", x, [2, 3, 4]), t.expand(2, 3, 4))
    same(run("tensor.expand", x, [-1, 5]), t.expand(-1, 5))
    same(run("tensor.expand_as", x, np.zeros((3, 2))), t.expand_as(torch.zeros(3, 2)))
    with pytest.raises(RuntimeError, match="expanded size"):
        run("tensor.expand", x, [4, 4])
    same(run("tensor.repeat", x, [2, 3]), t.repeat(2, 3))
    same(run("tensor.repeat", x, [2, 1, 2]), t.repeat(2, 1, 2))
    with pytest.raises(RuntimeError, match="repeat"):
        run("tensor.repeat", x, [2])
    same(run("tensor.tile", x, [2]), t.tile((2,)))
    same(run("tensor.repeat_interleave", x, 2, 0), t.repeat_interleave(2, 0))
    same(run("tensor.repeat_interleave", x, 2, None), t.repeat_interleave(2))
    same(run("tensor.flip", X, [0, 2]), torch.flip(to_torch(X), (0, 2)))
    same(run("tensor.roll", X, [1, -2], [0, 2]), torch.roll(to_torch(X), (1, -2), (0, 2)))
    same(run("tensor.roll", X, [5], []), torch.roll(to_torch(X), 5))


def test_cat_stack_and_promotion():
    a = np.ones((2, 3), np.int64)
    b = np.zeros((1, 3), np.float32)
    same(run("tensor.cat", [a, b], 0), torch.cat([to_torch(a), to_torch(b)]))
    same(run("tensor.cat", [a, np.zeros(0, np.float32), a], -2),
         torch.cat([to_torch(a), torch.zeros(0), to_torch(a)], -2))
    with pytest.raises(RuntimeError, match="Sizes of tensors must match"):
        run("tensor.cat", [a, np.zeros((2, 4))], 0)
    with pytest.raises(RuntimeError, match="zero-dimensional"):
        run("tensor.cat", [np.array(1.0)], 0)
    same(run("tensor.stack", [a, a * 2], 1), torch.stack([to_torch(a), to_torch(a) * 2], 1))
    same(run("tensor.stack", [a, a], -1), torch.stack([to_torch(a)] * 2, -1))
    with pytest.raises(RuntimeError, match="equal size"):
        run("tensor.stack", [a, b], 0)
    same(run("tensor.hstack", [a, a]), torch.hstack([to_torch(a)] * 2))
    v = np.arange(3.0)
    same(run("tensor.vstack", [v, v]), torch.vstack([to_torch(v)] * 2))


def test_chunk_split_unbind_are_views():
    t = to_torch(X)
    for chunks in (1, 2, 3, 5):
        same(run("tensor.chunk", X, chunks, 2), list(t.chunk(chunks, 2)))
    same(run("tensor.split", X, 3, 2), list(t.split(3, 2)))
    same(run("tensor.split_sizes", X, [1, 3], -1), list(t.split([1, 3], -1)))
    with pytest.raises(RuntimeError, match="sum exactly"):
        run("tensor.split_sizes", X, [1, 2], -1)
    same(run("tensor.unbind", X, 1), list(t.unbind(1)))
    same(run("tensor.unbind", X[0, 0], 0), list(t[0, 0].unbind(0)))
    x = X.copy()
    ops.get("tensor.chunk").kernel(x, 2, 0)[1][...] = -1
    assert (x[1] == -1).all()


def _index(x, spec, ints=(), tensors=()):
    return run("tensor.index", x, spec, list(ints), list(tensors))


def test_basic_indexing_and_views():
    t = to_torch(X)
    same(_index(X, "i", [1]), t[1])
    same(_index(X, "i,i,i", [1, -1, 2]), t[1, -1, 2])
    same(_index(X, "s110,n,e", [0, 1]), t[0:1, None, ...])
    same(_index(X, "e,i", [-1]), t[..., -1])
    same(_index(X, "s101,s010", [1, 2, 2]), t[1::2, :2])
    same(_index(X, "s000,s011", [2, 1]), t[:, :2:1])
    r = ops.get("tensor.index").kernel(X, "i,i,i", [0, 0, 0], [])
    assert type(r) is np.ndarray and r.ndim == 0 and r.base is not None  # a 0-d view
    with pytest.raises(IndexError, match="out of bounds for dimension"):
        _index(X, "i", [2])
    with pytest.raises(IndexError, match="too many indices"):
        _index(X, "i,i,i,i", [0, 0, 0, 0])
    with pytest.raises(ValueError, match="step must be greater than zero"):
        build_index("s001", [-1], [])


def test_tensor_indexing():
    t = to_torch(X)
    idx = np.array([1, 0, 1])
    same(_index(X, "t", [], [idx]), t[to_torch(idx)])
    mask = X[:, :, 0] > 5
    same(_index(X, "t", [], [mask]), t[to_torch(mask)])
    same(_index(X, "s000,t,i", [1], [np.array([2, 0])]), t[:, torch.tensor([2, 0]), 1])
    same(_index(X, "t,t", [], [np.array([0, 1]), np.array([2, 2])]),
         t[torch.tensor([0, 1]), torch.tensor([2, 2])])
    with pytest.raises(IndexError):
        _index(X, "t", [], [np.array([0.5])])


def test_index_put():
    x = X.copy()
    t = to_torch(X)
    ops.get("tensor.index_put_scalar").kernel(x, "i,s000", [0], [], 5)
    t[0, :] = 5
    ops.get("tensor.index_put").kernel(x, "e,i", [1], [], np.arange(3, dtype=np.float32))
    t[..., 1] = torch.arange(3.0)
    mask = x > 10
    ops.get("tensor.index_put_scalar").kernel(x, "t", [], [mask], -1.0)
    t[t > 10] = -1.0
    same(x, t)
    xi = np.zeros(3, np.int64)
    ops.get("tensor.index_put_scalar").kernel(xi, "i", [1], [], 2.7)
    assert xi[1] == 2
    with pytest.raises(RuntimeError, match="shape mismatch"):
        ops.get("tensor.index_put").kernel(x, "i", [0], [], np.ones(5, np.float32))
    ro = np.broadcast_to(np.zeros(3), (2, 3))
    with pytest.raises(RuntimeError, match="read-only"):
        ops.get("tensor.index_put_scalar").kernel(ro, "i", [0], [], 1.0)


def test_select_narrow_gather_scatter():
    t = to_torch(X)
    same(run("tensor.select", X, 1, -1), t.select(1, -1))
    with pytest.raises(IndexError, match="out of range"):
        run("tensor.select", X, 1, 3)
    same(run("tensor.narrow", X, 2, 1, 2), t.narrow(2, 1, 2))
    same(run("tensor.narrow", X, -1, -3, 2), t.narrow(-1, -3, 2))
    with pytest.raises(RuntimeError, match="exceeds dimension size"):
        run("tensor.narrow", X, 2, 3, 2)
    idx = np.array([[0, 2], [1, 0]])
    x2 = X[0]
    same(run("tensor.gather", x2, 1, idx), torch.gather(t[0], 1, to_torch(idx)))
    same(run("tensor.gather", x2, 0, idx), torch.gather(t[0], 0, to_torch(idx)))
    same(run("tensor.index_select", X, 2, np.array([3, 0, 3])),
         torch.index_select(t, 2, torch.tensor([3, 0, 3])))
    src = np.full((2, 2), 9.0, np.float32)
    same(run("tensor.scatter", x2, 1, idx, src), t[0].scatter(1, to_torch(idx), to_torch(src)))
    same(run("tensor.scatter_value", x2, 0, idx, -1.0), t[0].scatter(0, to_torch(idx), -1.0))
    y = x2.copy()
    assert ops.get("tensor.scatter_value_").kernel(y, 1, idx, 0.0) is y
    with pytest.raises(RuntimeError, match="int64"):
        run("tensor.gather", x2, 1, idx.astype(np.float32))


def test_scatter_add():
    t = to_torch(X)
    idx = np.array([[0, 2, 2], [1, 0, 2]])  # repeated indices add up
    src = (np.arange(12, dtype=np.float32) - 5.0).reshape(2, 6)
    same(run("tensor.scatter_add", X[0], 1, idx, src),
         torch.scatter_add(t[0], 1, to_torch(idx), to_torch(src)))
    same(run("tensor.scatter_add", X[0], 0, idx, src),
         t[0].scatter_add(0, to_torch(idx), to_torch(src)))
    y = X[0].copy()
    assert ops.get("tensor.scatter_add_").kernel(y, 1, idx, src) is y
    same(y, t[0].clone().scatter_add_(1, to_torch(idx), to_torch(src)))
    with pytest.raises(RuntimeError, match="out of bounds"):
        run("tensor.scatter_add", X[0], 0, idx + 3, src)
    with pytest.raises(RuntimeError, match="dtype"):
        run("tensor.scatter_add", X[0], 0, idx, src.astype(np.float64))


def test_masks_triangles_one_hot():
    t = to_torch(X)
    mask = (X % 3) == 0
    same(run("tensor.masked_select", X, mask), torch.masked_select(t, to_torch(mask)))
    same(run("tensor.nonzero", mask), torch.nonzero(to_torch(mask)))
    same(run("tensor.take", X, np.array([[0, 23], [5, 7]])),
         torch.take(t, torch.tensor([[0, 23], [5, 7]])))
    for k in (-1, 0, 2):
        same(run("tensor.tril", X, k), torch.tril(t, k))
        same(run("tensor.triu", X, k), torch.triu(t, k))
    labels = np.array([[0, 2], [3, 1]])
    same(run("tensor.one_hot", labels, -1), torch.nn.functional.one_hot(to_torch(labels)))
    same(run("tensor.one_hot", labels, 6), torch.nn.functional.one_hot(to_torch(labels), 6))
    with pytest.raises(RuntimeError, match="num_classes"):
        run("tensor.one_hot", labels, 2)


KW = (None, False)  # device, requires_grad


def test_creation():
    same(run("tensor.zeros", [2, 3], None, *KW), torch.zeros(2, 3))
    same(run("tensor.ones", [2], "int32", *KW), torch.ones(2, dtype=torch.int32))
    assert run("tensor.empty", [4, 0], "float64", *KW).shape == (4, 0)
    for v in (1.5, 2, True):
        same(run("tensor.full", [2, 2], v, None, *KW), torch.full((2, 2), v))
    same(run("tensor.full", [2], 3, "float64", *KW), torch.full((2,), 3, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="negative dimension"):
        run("tensor.zeros", [2, -1], None, *KW)
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    for name, fn in (("zeros_like", torch.zeros_like), ("ones_like", torch.ones_like)):
        same(run(f"tensor.{name}", x, None, *KW), fn(to_torch(x)))
        same(run(f"tensor.{name}", x, "float32", *KW), fn(to_torch(x), dtype=torch.float32))
    same(run("tensor.full_like", x, 7, None, *KW), torch.full_like(to_torch(x), 7))
    same(run("tensor.new_zeros", x, [3], None, *KW), to_torch(x).new_zeros(3))
    same(run("tensor.new_full", x, [1, 2], 4, None, *KW), to_torch(x).new_full((1, 2), 4))


@pytest.mark.parametrize("args", [(5,), (2, 7), (1, 2.5, 0.5), (0.0, 1.0, 0.1), (5, 1, -2),
                                  (-3, 3)])
def test_arange(args):
    if len(args) == 1:
        same(run("tensor.arange", args[0], None, *KW), torch.arange(*args))
    else:
        start, end, step = (args + (1,))[:3]
        same(run("tensor.arange_range", start, end, step, None, *KW),
             torch.arange(start, end, step), rtol=1e-6)
    with pytest.raises(RuntimeError):
        run("tensor.arange_range", 0, 5, 0, None, *KW)


def test_linspace_eye_tensor():
    same(run("tensor.linspace", 0, 1, 5, None, *KW), torch.linspace(0, 1, 5))
    same(run("tensor.linspace", -2, 3.5, 7, "float64", *KW),
         torch.linspace(-2, 3.5, 7, dtype=torch.float64))
    same(run("tensor.eye", 3, None, None, *KW), torch.eye(3))
    same(run("tensor.eye", 2, 4, "int64", *KW), torch.eye(2, 4, dtype=torch.int64))
    same(run("tensor.from_floats", [1.0, 2.5], None, *KW), torch.tensor([1.0, 2.5]))
    same(run("tensor.from_ints", [1, 2], None, *KW), torch.tensor([1, 2]))
    same(run("tensor.from_bools", [True, False], None, *KW), torch.tensor([True, False]))
    same(run("tensor.from_nested_ints", [[1, 2], [3, 4]], None, *KW),
         torch.tensor([[1, 2], [3, 4]]))
    same(run("tensor.from_float", 2.0, "float64", *KW), torch.tensor(2.0, dtype=torch.float64))
    same(run("tensor.from_int", 2, None, *KW), torch.tensor(2))


def test_conversions_and_queries():
    x = np.array([[1.7, -2.2]], np.float32)
    t = to_torch(x)
    for name in ("float", "double", "half", "int", "long", "short", "char", "byte", "bool"):
        same(run(f"tensor.to_{name}", x if name != "byte" else np.abs(x)),
             getattr(t if name != "byte" else t.abs(), name)())
    same(run("tensor.to", x, "int64", False, False), t.to(torch.int64))
    same(run("tensor.to_other", x, np.zeros(1, np.float64), False, False),
         t.to(torch.zeros(1, dtype=torch.float64)))
    same(run("tensor.type_as", x, np.zeros(1, np.int32)), t.type_as(torch.zeros(1).int()))
    assert run("tensor.to_float", x) is not None
    assert ops.get("tensor.to_float").kernel(x) is x  # torch returns self: same dtype
    assert run("tensor.size", x) == [1, 2]
    assert run("tensor.size_dim", x, -1) == 2
    with pytest.raises(IndexError):
        run("tensor.size_dim", x, 2)
    assert run("tensor.numel", x) == 2 and run("tensor.dim", x) == 2
    assert run("tensor.item_float", x[:, :1]) == pytest.approx(1.7)
    assert run("tensor.int_value", x[:, 1:]) == int(t[0, 1])
    with pytest.raises(RuntimeError, match="2 elements cannot be converted"):
        run("tensor.item_float", x)
    with pytest.raises(RuntimeError, match="ambiguous"):
        run("tensor.bool_value", x)
    assert run("tensor.tolist_float", x[0]) == pytest.approx(t[0].tolist())
    assert run("tensor.dtype", x) == "float32"
    assert run("tensor.len", x) == 1
    y = x.copy()
    assert ops.get("tensor.fill_").kernel(y, 3) is y and (y == 3).all()
    ops.get("tensor.zero_").kernel(y)
    assert (y == 0).all()
    ops.get("tensor.copy_").kernel(y, np.array([5, 6]), False)
    same(y, torch.tensor([[5.0, 6.0]]))
