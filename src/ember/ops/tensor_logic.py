"""Logical and bitwise operators (and, or, xor, shifts, ~), where and masked_fill.

Logical ops take any dtype (nonzero is true) and give bool; bitwise ops and shifts
need integer or bool tensors (shifts: integer), as in torch. where promotes its two
value operands like an arithmetic op; masked_fill keeps self's dtype.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import (
    arr,
    binary_info,
    compare_info,
    reg,
    scalar_dtype,
    tensors_dtype,
)
from ember.ops.tensor_elementwise import ts_kernel, tt_kernel
from ember.ops.tensorinfo import TensorInfo, broadcast, infer_result_type

# ----------------------------------------------------------------------------- logical, bitwise


def _logical(ufunc):
    return lambda a, b: arr(ufunc(a, b))


for _n, _fn in (("and", np.logical_and), ("or", np.logical_or), ("xor", np.logical_xor)):
    reg(f"tensor.logical_{_n}", "(Tensor self, Tensor other) -> Tensor", _logical(_fn),
        (f"torch.logical_{_n}", f"Tensor.logical_{_n}"), compare_info,
        doc=f"Elementwise logical {_n} (any dtype, nonzero is true); bool result.")
reg("tensor.logical_not", "(Tensor self) -> Tensor", lambda x: arr(np.logical_not(x)),
    ("torch.logical_not", "Tensor.logical_not"), lambda a: TensorInfo("bool", a[0].shape),
    doc="Elementwise logical not; bool result.")


def _integral(what, *xs):
    for x in xs:
        if isinstance(x, np.ndarray) and x.dtype.kind not in "biu" or isinstance(x, float):
            raise RuntimeError(f"{what} is only supported for integer and bool tensors")


def _shift_check(rt, a, b):
    if rt.kind not in "iu":
        raise RuntimeError(f"shifts are only supported for integer tensors, not {rt}")


def _bitwise(ufunc, what):
    shift = ufunc in (np.left_shift, np.right_shift)
    tt, ts = tt_kernel(ufunc, _shift_check if shift else None), ts_kernel(ufunc, _shift_check if shift
                                                               else None)

    def kernel(a, b):
        _integral(what, a, b)
        return tt(a, b) if isinstance(b, np.ndarray) else ts(a, b)
    return kernel


def _bitwise_info(args):
    for a in args[:2]:
        if a.is_tensor and a.dtype is not None and a.dtype.startswith("float") or \
                a.kind == "float":
            raise ShapeMismatch("bitwise operators need integer or bool tensors")
    return binary_info(args)


def _rbitwise(ufunc, what):
    rts = ts_kernel(ufunc, _shift_check if ufunc in (np.left_shift, np.right_shift) else None,
              reflected=True)

    def kernel(a, s):
        _integral(what, a, s)
        return rts(a, s)
    return kernel


_BITWISE = [("and", np.bitwise_and, "&"), ("or", np.bitwise_or, "|"),
            ("xor", np.bitwise_xor, "^"), ("lshift", np.left_shift, "<<"),
            ("rshift", np.right_shift, ">>")]
for _n, _fn, _sym in _BITWISE:
    _names = (f"Tensor.__{_n}__", f"torch.bitwise_{_n}" if "shift" not in _n else
              f"torch.bitwise_{'left' if _n == 'lshift' else 'right'}_shift",
              f"Tensor.bitwise_{_n}")
    _k = _bitwise(_fn, f"operator {_sym}")
    reg(f"tensor.bitwise_{_n}", "(Tensor self, Tensor other) -> Tensor", _k, _names,
        _bitwise_info, doc=f"Elementwise bitwise {_n} ({_sym}) of int/bool tensors.")
    reg(f"tensor.bitwise_{_n}_scalar", "(Tensor self, Scalar other) -> Tensor", _k, _names,
        _bitwise_info, doc=f"Elementwise bitwise {_n} ({_sym}) with an int/bool number.")
    reg(f"tensor.bitwise_r{_n}_scalar", "(Tensor self, Scalar other) -> Tensor",
        _rbitwise(_fn, f"operator {_sym}"), (f"Tensor.__r{_n}__",), _bitwise_info,
        doc=f"Elementwise bitwise {_n} ({_sym}) of a number and a tensor.")


def _invert(x):
    """~x: logical not of a bool tensor, bitwise not of an int tensor."""
    _integral("operator ~", x)
    return arr(np.invert(x))


reg("tensor.invert", "(Tensor self) -> Tensor", _invert,
    ("Tensor.__invert__", "torch.bitwise_not", "Tensor.bitwise_not"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True,
    doc="~x: logical not of a bool tensor, bitwise not of an int tensor.")

# ----------------------------------------------------------------------------- where, masked_fill


def _where(c, a, b):
    """torch.where(condition, a, b): a where condition is true, else b (a, b tensor/number)."""
    if c.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a "
                           f"tensor with dtype {c.dtype}")
    ta, tb = isinstance(a, np.ndarray), isinstance(b, np.ndarray)
    if ta and tb:
        rt = tensors_dtype(a, b)
    elif ta or tb:
        rt = scalar_dtype(a, b) if ta else scalar_dtype(b, a)
    else:
        rt = np.dtype(_scalars_dtype(a, b))
    return np.where(c, np.asarray(a, rt) if not ta else a.astype(rt, copy=False),
                    np.asarray(b, rt) if not tb else b.astype(rt, copy=False))


def _scalars_dtype(a, b):
    kinds = {type(a), type(b)}
    return "float32" if float in kinds else ("int64" if int in kinds else "bool")


def _where_info(args):
    c, a, b = args[0], args[1], args[2]
    shapes = [x.shape for x in (c, a, b) if x.is_tensor]
    shape = shapes[0]
    for s in shapes[1:]:
        shape = broadcast(shape, s)
    if not a.is_tensor and not b.is_tensor:
        kinds = {a.kind, b.kind, type(a.const).__name__, type(b.const).__name__}
        dtype = "float32" if "float" in kinds else ("int64" if "int" in kinds else "bool")
    else:
        dtype = infer_result_type([a, b])
    return TensorInfo(dtype, shape)


for _s1, _s2 in (("Tensor", "Tensor"), ("Tensor", "Scalar"), ("Scalar", "Tensor"),
                 ("Scalar", "Scalar")):
    _suffix = "" if (_s1, _s2) == ("Tensor", "Tensor") else \
        "_" + ("t" if _s1 == "Tensor" else "s") + ("t" if _s2 == "Tensor" else "s")
    reg(f"tensor.where{_suffix}", f"(Tensor condition, {_s1} self, {_s2} other) -> Tensor",
        _where, ("torch.where",), _where_info, may_raise=True,
        doc="torch.where(condition, a, b): elementwise choice, broadcasting all three.")
reg("tensor.where_method", "(Tensor self, Tensor condition, Tensor other) -> Tensor",
    lambda a, c, b: _where(c, a, b), ("Tensor.where",),
    lambda args: _where_info([args[1], args[0], args[2]]), may_raise=True,
    doc="self.where(condition, other): self where condition is true, else other.")


def _masked_fill(x, mask, value, inplace=False):
    if mask.dtype != np.bool_:
        raise RuntimeError(f"masked_fill only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype}")
    if isinstance(value, np.ndarray):
        if value.ndim:
            raise RuntimeError(f"masked_fill only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.ndim} dimension(s)")
        value = value.item()
    out = x if inplace else x.copy()
    try:
        np.copyto(out, np.asarray(value).astype(x.dtype), where=mask)
    except ValueError as e:
        raise RuntimeError(f"masked_fill: mask of shape {list(mask.shape)} does not broadcast "
                           f"to the tensor's shape {list(x.shape)}") from e
    return out


def _masked_fill_info(args):
    x, m = args[0], args[1]
    out = broadcast(x.shape, m.shape)
    if out is not None and x.shape is not None and len(out) > len(x.shape):
        raise ShapeMismatch(f"masked_fill: a mask of rank {len(m.shape)} does not broadcast to "
                            f"a tensor of rank {len(x.shape)}")
    return TensorInfo(x.dtype, x.shape)


for _kind in ("Scalar", "Tensor"):
    _sfx = "" if _kind == "Scalar" else "_tensor"
    reg(f"tensor.masked_fill{_sfx}", f"(Tensor self, Tensor mask, {_kind} value) -> Tensor",
        _masked_fill, ("Tensor.masked_fill", "torch.masked_fill"), _masked_fill_info,
        may_raise=True, doc="A copy of self with value where mask is true (mask broadcasts).")
    reg(f"tensor.masked_fill{_sfx}_", f"(Tensor self, Tensor mask, {_kind} value) -> Tensor",
        lambda x, m, v: _masked_fill(x, m, v, True), ("Tensor.masked_fill_",),
        _masked_fill_info, may_raise=True, doc="Fill self with value where mask is true.")
