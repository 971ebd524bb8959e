"""Matrix products: matmul (@), mm, bmm, mv, dot, outer, addmm, baddbmm, linear, einsum.

As in torch, both operands must have the same dtype (no promotion). A batch of
row vectors times one matrix ((B, T, K) @ (K, N), the shape of every linear
layer) runs as one (B*T, K) @ (K, N) GEMM instead of B small ones. linear
multiplies by the weight's transpose: for a frozen weight (loaded from an artifact)
a C-contiguous copy made once, on which numpy's GEMM runs up to 1.5x faster than on
the transposed view; for other weights (and single rows, a GEMV) the view itself.

OpenBLAS's small-matrix kernels (M * N * K below 2**20) run ~25% faster than its
packed path at batch-1 sizes, so a float32 product of a few rows by a larger
C-contiguous matrix (a frozen linear weight's cached transpose, an RNN's input
weights) runs as one batched matmul over column blocks of that size: the blocks are
views of the matrix, and each writes its columns of the result in place.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, arr, frozen, prepared, reg
from ember.ops.tensorinfo import TensorInfo, broadcast, fmt, promote_types, same_dim


def _same_dtype(what, a, b):
    if a.dtype != b.dtype:
        raise RuntimeError(f"{what}: expected both operands to have the same dtype, but got "
                           f"{a.dtype} != {b.dtype}")


_SMALL_GEMM = 1 << 20
"""M * N * K under which OpenBLAS multiplies with its small-matrix kernels."""


def _block_width(a, b):
    """Columns per block for the float32 a (M, K) @ b (K, N), b C-contiguous: 0 unless M > 1,
    the whole product is past the small-matrix size and blocks of 256, 128, 64 or 32
    columns are under it."""
    m, (k, n) = a.shape[0], b.shape
    if m < 2 or m * k * n < _SMALL_GEMM or a.dtype != np.float32 or \
            b.dtype != np.float32 or not b.flags.c_contiguous:
        return 0
    for width in (256, 128, 64, 32):
        if width < n and n % width == 0 and m * k * width < _SMALL_GEMM:
            return width
    return 0


def _blocked_matmul(a, b, width):
    """a (M, K) @ b (K, N) as one batched matmul over b's (K, width) column blocks."""
    m, (k, n) = a.shape[0], b.shape
    y = np.empty((m, n), a.dtype)
    blocks = b.reshape(k, n // width, width).transpose(1, 0, 2)
    np.matmul(a, blocks, out=y.reshape(m, n // width, width).transpose(1, 0, 2))
    return y


def flat_matmul(a, b):
    """a @ b for a of rank >= 2 and a matrix b, as one GEMM over all leading dims (or
    one per small-matrix column block of b)."""
    if b.ndim == 2 and (a.ndim == 2 or a.flags.c_contiguous):
        rows = a if a.ndim == 2 else a.reshape(-1, a.shape[-1])
        width = _block_width(rows, b) if rows.shape[0] * b.size >= _SMALL_GEMM else 0
        y = _blocked_matmul(rows, b, width) if width else np.matmul(rows, b)
        return y if rows is a else y.reshape(a.shape[:-1] + b.shape[-1:])
    return np.matmul(a, b)


def matmul(a, b):
    """torch.matmul: vector/matrix/batched products with broadcasting batch dims."""
    if a.dtype != b.dtype:
        _same_dtype("matmul", a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    if a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_mat(a)} and "
                           f"{_mat(b)})")
    if a.ndim > 2 and b.ndim == 2:
        return flat_matmul(a, b)
    return arr(np.matmul(a, b))


def _mat(x):
    rows = int(np.prod(x.shape[:-1])) if x.ndim > 1 else 1
    return f"{rows}x{x.shape[-1]}"


def _check_rank(what, x, n):
    if x.ndim != n:
        raise RuntimeError(f"{what}: expected a {n}D tensor, got {x.ndim}D")


def mm(a, b):
    """Matrix product of two 2-D tensors."""
    _check_rank("mm", a, 2), _check_rank("mm", b, 2)
    return matmul(a, b)


def bmm(a, b):
    """Batched matrix product of two 3-D tensors with equal batch sizes."""
    _check_rank("bmm", a, 3), _check_rank("bmm", b, 3)
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(f"bmm: batch sizes differ ({a.shape[0]} and {b.shape[0]})")
    return matmul(a, b)


def transposed(w, contiguous: bool = True):
    """w.T, copied C-contiguous if asked (numpy's GEMM is faster on the copy; worth it
    only when the copy is cached)."""
    return np.ascontiguousarray(w.T) if contiguous else w.T


T_CACHE_MAX_BYTES = 4 << 20
"""Largest weight whose C-contiguous transpose is cached. numpy's GEMM gains up to 1.5x
from the copy on small weights, a few percent on large ones (4096 x 4096: 2-9%), where a
copy per weight would double the resident memory of a model mapped from its artifact."""


def weight_t(w):
    """w.T as the right operand of a GEMM: cached C-contiguous for a frozen w (the same
    array object every call, e.g. a module weight) of at most T_CACHE_MAX_BYTES, the
    transposed view otherwise."""
    if w.nbytes <= T_CACHE_MAX_BYTES and frozen(w):
        return prepared("T", (w,), transposed)
    return w.T


def linear(x, w, b):
    """x @ w.T + b: w is (out, in) as in torch."""
    if x.dtype != w.dtype:
        _same_dtype("linear", x, w)
    if x.shape[-1] != w.shape[-1]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_mat(x)} and "
                           f"{w.shape[-1]}x{w.shape[0]})")
    if x.size == x.shape[-1]:  # one row (a GEMV): the transposed view
        y = flat_matmul(x, w.T) if x.ndim > 2 else np.matmul(x, w.T)
    else:
        y = flat_matmul(x, weight_t(w))
    if b is not None:
        if y.ndim == 0:
            return arr(y + b)
        y += b
    return arr(y)


def addmm(c, a, b, beta, alpha):
    """beta * c + alpha * (a @ b)."""
    y = mm(a, b)
    if alpha != 1:
        y *= alpha
    return arr(y + (c if beta == 1 else beta * c))


def baddbmm(c, a, b, beta, alpha):
    """beta * c + alpha * bmm(a, b)."""
    y = bmm(a, b)
    if alpha != 1:
        y *= alpha
    if beta == 0:
        return y
    return arr(y + (c if beta == 1 else beta * c))


def _dot(a, b):
    """The dot product of two 1-D tensors."""
    _check_rank("dot", a, 1), _check_rank("dot", b, 1)
    _same_dtype("dot", a, b)
    if a.shape != b.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements")
    return arr(np.dot(a, b))


# ----------------------------------------------------------------------------- shape functions


def matmul_info(args):
    """torch.matmul's shape rules; a known inner-dimension clash is a ShapeMismatch."""
    a, b = args[0], args[1]
    if a.dtype is not None and b.dtype is not None and a.dtype != b.dtype:
        raise ShapeMismatch(f"matmul of {a.dtype} and {b.dtype} tensors (torch needs equal "
                            "dtypes)")
    dtype = promote_types(a.dtype, b.dtype)
    if a.shape is None or b.shape is None:
        return TensorInfo(dtype, None)
    if not a.shape or not b.shape:
        raise ShapeMismatch("both arguments to matmul need to be at least 1D")
    k1 = a.shape[-1]
    k2 = b.shape[-2] if len(b.shape) >= 2 else b.shape[0]
    if same_dim(k1, k2) is False:
        raise ShapeMismatch(f"matmul of {fmt(a.shape)} and {fmt(b.shape)}: inner dimensions "
                            f"{k1} and {k2} differ")
    if len(a.shape) == 1 and len(b.shape) == 1:
        return TensorInfo(dtype, ())
    if len(b.shape) == 1:
        return TensorInfo(dtype, a.shape[:-1])
    if len(a.shape) == 1:
        return TensorInfo(dtype, b.shape[:-2] + b.shape[-1:])
    batch = broadcast(a.shape[:-2], b.shape[:-2], "broadcast the batch dimensions of")
    return TensorInfo(dtype, batch + (a.shape[-2], b.shape[-1]))


def _ranked(n, what):
    def info(args):
        for x in args[:2]:
            if x.shape is not None and len(x.shape) != n:
                raise ShapeMismatch(f"{what} expects {n}D tensors, got {fmt(x.shape)}")
        return matmul_info(args)
    return info


def _linear_info(args):
    x, w = args[0], args[1]
    if x.shape is None or w.shape is None or not x.shape or len(w.shape) != 2:
        return TensorInfo(x.dtype, None)
    if same_dim(x.shape[-1], w.shape[1]) is False:
        raise ShapeMismatch(f"linear: input of shape {fmt(x.shape)} has {x.shape[-1]} features "
                            f"but the weight {fmt(w.shape)} expects {w.shape[1]}")
    return TensorInfo(x.dtype, x.shape[:-1] + (w.shape[0],))


def _outer_info(args):
    a, b = args[0], args[1]
    shape = None if a.shape is None or b.shape is None else a.shape[:1] + b.shape[:1]
    return TensorInfo(promote_types(a.dtype, b.dtype), shape)


def _einsum_info(args):
    tensors = args[1].items if args[1].items is not None else [a for a in args[1:]
                                                               if a.is_tensor]
    dtype = tensors[0].dtype if tensors else None
    for t in tensors[1:]:
        dtype = promote_types(dtype, t.dtype)
    return TensorInfo(dtype, None)


def _add_info(n, what):
    inner = _ranked(n, what)
    return lambda args: inner(args[1:3])


reg("tensor.matmul", "(Tensor self, Tensor other) -> Tensor", matmul,
    ("Tensor.__matmul__", "torch.matmul", "Tensor.matmul"), matmul_info, may_raise=True)
reg("tensor.mm", "(Tensor self, Tensor mat2) -> Tensor", mm, ("torch.mm", "Tensor.mm"),
    _ranked(2, "mm"), may_raise=True)
reg("tensor.bmm", "(Tensor self, Tensor mat2) -> Tensor", bmm, ("torch.bmm", "Tensor.bmm"),
    _ranked(3, "bmm"), may_raise=True)
reg("tensor.mv", "(Tensor self, Tensor vec) -> Tensor",
    lambda a, v: (_check_rank("mv", a, 2), _check_rank("mv", v, 1), matmul(a, v))[2],
    ("torch.mv", "Tensor.mv"), matmul_info, may_raise=True,
    doc="Matrix-vector product.")
reg("tensor.dot", "(Tensor self, Tensor tensor) -> Tensor", _dot,
    ("torch.dot", "Tensor.dot"), lambda a: TensorInfo(a[0].dtype, ()),
    may_raise=True)


def _inner(a, b):
    """torch.inner: the sum over the last dim of a and b (a product for a 0-dim operand)."""
    _same_dtype("inner", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return arr(np.asarray(a * b))
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(a.shape)} and {list(b.shape)}")
    return arr(np.asarray(np.inner(a, b), dtype=a.dtype))


reg("tensor.inner", "(Tensor self, Tensor other) -> Tensor", _inner,
    ("torch.inner", "Tensor.inner"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="The sum of products over the last dim of each (a tensordot).")
reg("tensor.outer", "(Tensor self, Tensor vec2) -> Tensor",
    lambda a, b: (_same_dtype("outer", a, b), arr(np.outer(a, b)))[1],
    ("torch.outer", "Tensor.outer", "torch.ger", "Tensor.ger"), _outer_info, may_raise=True,
    doc="Outer product of two vectors.")
reg("tensor.linear", "(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", linear,
    (f"{F}.linear",), _linear_info, may_raise=True)
reg("tensor.addmm", "(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)"
    " -> Tensor", addmm, ("torch.addmm", "Tensor.addmm"), _add_info(2, "addmm"),
    may_raise=True)
reg("tensor.baddbmm", "(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
    "Scalar alpha=1) -> Tensor", baddbmm, ("torch.baddbmm", "Tensor.baddbmm"),
    _add_info(3, "baddbmm"), may_raise=True)

# ----------------------------------------------------------------------------- einsum


def _tensordot(a, b, dims_a, dims_b):
    """torch.tensordot: contract dims_a of a with dims_b of b (as one matmul)."""
    if a.dtype != b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    ca = [_dim_index(d, a.ndim) for d in dims_a]
    cb = [_dim_index(d, b.ndim) for d in dims_b]
    for da, db, i, j in zip(dims_a, dims_b, ca, cb):
        if a.shape[i] != b.shape[j]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a.shape[i]} in dim {da} and second has size {b.shape[j]} "
                               f"in dim {db}")
    fa = [i for i in range(a.ndim) if i not in ca]
    fb = [j for j in range(b.ndim) if j not in cb]
    size = int(np.prod([a.shape[i] for i in ca], dtype=np.int64))
    left = np.ascontiguousarray(a.transpose(fa + ca)).reshape(-1, size)
    right = np.ascontiguousarray(b.transpose(cb + fb)).reshape(size, -1)
    out = matmul(left, right)
    return arr(np.asarray(out).reshape([a.shape[i] for i in fa] + [b.shape[j] for j in fb]))


def _dim_index(d, ndim):
    if not -ndim <= d < max(ndim, 1):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {d})")
    return d % ndim if ndim else 0


def _tensordot_n(a, b, dims):
    if dims < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    if dims > min(a.ndim, b.ndim):
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return _tensordot(a, b, list(range(-dims, 0)), list(range(dims)))


def _tensordot_info(args):
    a, b = args[0], args[1]
    return TensorInfo(a.dtype if a.dtype == b.dtype else None, None)


reg("tensor.tensordot", "(Tensor self, Tensor other, int dims=2) -> Tensor", _tensordot_n,
    ("torch.tensordot",), _tensordot_info, may_raise=True,
    doc="torch.tensordot(a, b, n): contract the last n dims of a with the first n of b.")


def _tensordot_lists(a, b, dims):
    if len(dims) != 2:
        raise RuntimeError("tensordot expects dims to be a pair of lists of dims")
    return _tensordot(a, b, list(dims[0]), list(dims[1]))


reg("tensor.tensordot_pair", "(Tensor self, Tensor other, Tuple[int[], int[]] dims) -> Tensor",
    _tensordot_lists, ("torch.tensordot",), _tensordot_info, may_raise=True,
    doc="torch.tensordot(a, b, ([dims of a], [dims of b])): contract the listed dims.")
reg("tensor.tensordot_lists", "(Tensor self, Tensor other, int[][] dims) -> Tensor",
    _tensordot_lists, ("torch.tensordot",), _tensordot_info, may_raise=True,
    doc="torch.tensordot(a, b, [[dims of a], [dims of b]]): contract the listed dims.")


def einsum(equation, *ts):
    """Einstein summation over the operands (torch.einsum's equation syntax)."""
    if len(ts) == 1 and isinstance(ts[0], list):
        ts = tuple(ts[0])
    try:
        return arr(np.einsum(equation, *ts, optimize=len(ts) > 2 or "greedy"))
    except ValueError as e:
        raise RuntimeError(f"einsum(): {e}") from None


reg("tensor.einsum", "(str equation, Tensor[] tensors) -> Tensor", einsum, ("torch.einsum",),
    _einsum_info, may_raise=True)
for _k in (1, 2, 3):
    _ps = ", ".join(f"Tensor t{i}" for i in range(_k))
    reg(f"tensor.einsum{_k}", f"(str equation, {_ps}) -> Tensor", einsum, ("torch.einsum",),
        _einsum_info, may_raise=True, doc=f"Einstein summation over {_k} operand(s).")
