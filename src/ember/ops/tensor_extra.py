"""Tensor methods TorchScript programs reach for that the other op files leave out:
deg2rad / rad2deg, hypot, lerp, addcmul / addcdiv, nan_to_num, diff, msort, unique (the
sorted unique values), Tensor.where with a number, true_divide by a number.

Each follows torch's CPU kernel: its dtype rules (int tensors give float32 where torch's
do, integer addcdiv is refused) and its arithmetic order (lerp's two formulas around
weight 0.5, addcmul's `self + value * t1 * t2`), so float results match torch's bits.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import dispatch_on_true
from ember.ops.tensor_common import arr, as_float_info, binary_info, broadcast_error, \
    check_dim, div_info, operands_dtype, quiet, reg, same_as_first
from ember.ops.tensor_elementwise import _truediv_scalar
from ember.ops.tensor_logic import _where, _where_info
from ember.ops.tensorinfo import TensorInfo, infer_result_type


def _broadcastable(*xs):
    """torch's RuntimeError for tensors whose shapes do not broadcast together."""
    ts = [x for x in xs if isinstance(x, np.ndarray)]
    shape = ts[0].shape
    for t in ts[1:]:
        try:
            shape = np.broadcast_shapes(shape, t.shape)
        except ValueError:
            raise broadcast_error(np.broadcast_to(np.zeros((), t.dtype), shape), t) from None


def _as_float(x):
    return x if x.dtype.kind in "fc" else x.astype(np.float32)


def _deg2rad(x):
    with quiet():
        x = _as_float(x)
        return arr(x * np.asarray(np.pi / 180, x.dtype))


def _rad2deg(x):
    with quiet():
        x = _as_float(x)
        return arr(x * np.asarray(180 / np.pi, x.dtype))


def _hypot(a, b):
    _broadcastable(a, b)
    rt = operands_dtype(a, b)
    if rt.kind != "f":
        raise RuntimeError(f"\"hypot_cpu\" not implemented for '{_torch_name(rt)}'")
    with quiet():
        return arr(np.hypot(a.astype(rt, copy=False), b.astype(rt, copy=False)))


def _torch_name(dt) -> str:
    return {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
            "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short",
            "float16": "Half"}.get(np.dtype(dt).name, np.dtype(dt).name)


def _lerp(start, end, weight):
    """torch.lerp: start + weight * (end - start), as torch computes it (below weight 0.5
    from start, else from end) so the bits match."""
    if start.dtype != end.dtype:
        raise RuntimeError(f"expected dtype {start.dtype} for `end` but got dtype {end.dtype}")
    if start.dtype.kind not in "fc":
        raise RuntimeError(f"\"lerp_kernel_scalar\" not implemented for "
                           f"'{_torch_name(start.dtype)}'")
    _broadcastable(start, end, weight)
    dt = start.dtype
    w = np.asarray(weight, dt) if not isinstance(weight, np.ndarray) else weight.astype(dt)
    with quiet():
        diff = end - start
        low = start + w * diff
        high = end - diff * (np.asarray(1, dt) - w)
        return arr(np.where(np.abs(w) < 0.5, low, high).astype(dt, copy=False))


def _addc(divide):
    what = "addcdiv" if divide else "addcmul"

    def kernel(x, t1, t2, value):
        _broadcastable(x, t1, t2)
        rt = operands_dtype(x, t1, t2)
        if divide and t1.dtype.kind in "biu" and t2.dtype.kind in "biu":
            raise RuntimeError("Integer division with addcdiv is no longer supported, and in a "
                               "future release addcdiv will perform a true division of tensor1 "
                               "and tensor2. The historic addcdiv behavior can be implemented as "
                               "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) "
                               "for integer inputs and as (input + value * tensor1 / tensor2) "
                               "for float inputs. The future addcdiv behavior is just the latter "
                               "implementation: (input + value * tensor1 / tensor2), for all "
                               "dtypes.")
        if isinstance(value, float) and rt.kind in "biu":
            raise RuntimeError(f"For integral input tensors, argument value must not be a "
                               f"floating point number ({what}).")
        v = np.asarray(value).astype(rt)
        a, b, c = (y.astype(rt, copy=False) for y in (x, t1, t2))
        with quiet():
            prod = (v * b) / c if divide else (v * b) * c
            return arr((a + prod).astype(rt, copy=False))
    op = "/" if divide else "*"
    kernel.__doc__ = f"torch.{what}(self, t1, t2, value=v): self + v * t1 {op} t2."
    return kernel


def _nan_to_num(x, nan, posinf, neginf):
    if x.dtype.kind not in "fc":
        return x.copy()
    return arr(np.nan_to_num(x, nan=0.0 if nan is None else nan, posinf=posinf, neginf=neginf))


def _diff(x, n, dim, prepend, append):
    if x.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = check_dim(dim, x.ndim)
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = np.concatenate([np.broadcast_to(p, x.shape[:d] + p.shape[d:]) if p.ndim else
                            np.broadcast_to(p, x.shape[:d] + (1,) + x.shape[d + 1:])
                            for p in parts], axis=d)
    return arr(np.diff(x, n=n, axis=d)) if n else x.copy()


def _msort(x):
    return arr(np.sort(x, axis=0, kind="stable")) if x.ndim else x.copy()


def _unique_parts(x, dim, inverse, counts):
    """np.unique of x flattened (or of its slices along dim): (values, inverse, counts),
    as torch.unique gives them (the inverse has x's shape, or x.shape[dim] entries)."""
    if dim is None:
        u, inv, cnt = np.unique(x.reshape(-1), return_inverse=True, return_counts=True)
        inv = inv.reshape(x.shape)
    else:
        d = check_dim(dim, max(x.ndim, 1))
        if x.ndim == 0:
            x = x.reshape(1)
        u, inv, cnt = np.unique(x, axis=d, return_inverse=True, return_counts=True)
        inv = inv.reshape(-1)
    out = [arr(u)]
    if inverse:
        out.append(arr(inv.astype(np.int64)))
    if counts:
        out.append(arr(cnt.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _unique(x, is_sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values of x, ascending (torch's CPU unique sorts either way)."""
    return _unique_parts(x, dim, return_inverse, return_counts)


def _addc_info(args):
    return TensorInfo(infer_result_type(args[:3]), None)


for _n, _k in (("deg2rad", _deg2rad), ("rad2deg", _rad2deg)):
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _k, (f"torch.{_n}", f"Tensor.{_n}"),
        as_float_info, elementwise=True, doc=f"Elementwise {_n}; int tensors give float32.")
reg("tensor.hypot", "(Tensor self, Tensor other) -> Tensor", _hypot,
    ("torch.hypot", "Tensor.hypot"), binary_info, may_raise=True,
    doc="Elementwise sqrt(a**2 + b**2) of floating point tensors.")
for _w in ("Tensor", "Scalar"):
    reg(f"tensor.lerp_{_w.lower()}", f"(Tensor self, Tensor end, {_w} weight) -> Tensor", _lerp,
        ("torch.lerp", "Tensor.lerp"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
        doc="Linear interpolation start + weight * (end - start), torch's formula.")
for _n, _div in (("addcmul", False), ("addcdiv", True)):
    reg(f"tensor.{_n}", "(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> "
        "Tensor", _addc(_div), (f"torch.{_n}", f"Tensor.{_n}"), _addc_info, may_raise=True)
reg("tensor.nan_to_num", "(Tensor self, float? nan=None, float? posinf=None, "
    "float? neginf=None) -> Tensor", _nan_to_num, ("torch.nan_to_num", "Tensor.nan_to_num"),
    same_as_first, doc="NaN, +inf and -inf replaced (by 0 and the dtype's largest values).")
reg("tensor.diff", "(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, "
    "Tensor? append=None) -> Tensor", _diff, ("torch.diff", "Tensor.diff"),
    lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="The n-th forward difference along dim (prepend / append joined first).")
reg("tensor.msort", "(Tensor self) -> Tensor", _msort, ("torch.msort", "Tensor.msort"),
    same_as_first, doc="The values sorted along dim 0.")
_UNIQ = "Tensor self, bool sorted=True, bool return_inverse={}, bool return_counts={}, int? dim=None"
reg("tensor.unique", f"({_UNIQ.format(False, False)}) -> Tensor", _unique,
    ("torch.unique", "Tensor.unique"), lambda a: TensorInfo(a[0].dtype, None),
    doc="The distinct values (flattened, or the distinct slices along dim), ascending.")
for _n, _inv, _cnt in (("inverse", True, False), ("counts", False, True), ("all", True, True)):
    reg(f"tensor.unique_{_n}", f"({_UNIQ.format(_inv, _cnt)}) -> "
        f"Tuple[{', '.join(['Tensor'] * (1 + _inv + _cnt))}]",
        (lambda i, c: lambda x, s, ri, rc, d: _unique_parts(x, d, i, c))(_inv, _cnt), (),
        (lambda n: lambda a: tuple([TensorInfo(a[0].dtype, None)] +
                                   [TensorInfo("int64", None)] * n))(_inv + _cnt),
        may_raise=True, doc=f"torch.unique returning the values and {_n} "
        "(return_inverse / return_counts true).")
dispatch_on_true("tensor.unique", "return_inverse", "tensor.unique_inverse")
dispatch_on_true("tensor.unique", "return_counts", "tensor.unique_counts")
dispatch_on_true("tensor.unique_inverse", "return_counts", "tensor.unique_all")
dispatch_on_true("tensor.unique_counts", "return_inverse", "tensor.unique_all")
reg("tensor.where_method_scalar", "(Tensor self, Tensor condition, Scalar other) -> Tensor",
    lambda a, c, b: _where(c, a, b), ("Tensor.where",),
    lambda args: _where_info([args[1], args[0], args[2]]), may_raise=True,
    doc="self.where(condition, number): self where condition is true, else the number.")
reg("tensor.true_divide_scalar", "(Tensor self, Scalar other) -> Tensor", _truediv_scalar,
    ("Tensor.true_divide", "torch.true_divide"),
    div_info, elementwise=True,
    doc="tensor / number, always floating point.")
