"""Complex tensors (complex64, complex128): parts, conjugate, angle, and the views between a
complex tensor and its real pairs.

torch's dtype pairs: complex64 holds float32 parts, complex128 float64 parts. `view_as_real`
and `view_as_complex` share memory as in torch (numpy views). The elementwise arithmetic,
matmul, sum/mean and exp/log/sqrt of complex tensors are the ordinary operators (numpy's
complex loops under torch.result_type, see tensorinfo); abs and angle give the part dtype.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import arr, quiet, reg, torch_scalar_name
from ember.ops.tensorinfo import COMPLEX, FLOAT, TensorInfo, to_float

_PART = {"complex64": "float32", "complex128": "float64"}
_WHOLE = {"float16": "complex64", "float32": "complex64", "float64": "complex128"}


def part_dtype(dtype: str | None) -> str | None:
    """The dtype of a complex dtype's parts; other dtypes as float division gives them."""
    return _PART.get(dtype, to_float(dtype)) if dtype is not None else None


def _part_info(args):
    a = args[0]
    return TensorInfo(part_dtype(a.dtype), a.shape)


def _same_info(args):
    a = args[0]
    return TensorInfo(a.dtype, a.shape)


def _is_complex(x) -> bool:
    return bool(x.dtype.kind == "c")


def _real(x):
    """torch.real: the real parts (a view of a complex tensor); a real tensor itself."""
    return x.real if _is_complex(x) else x


def _imag(x):
    """torch.imag: the imaginary parts (a view); only complex tensors have them."""
    if not _is_complex(x):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return x.imag


def _conj(x):
    """torch.conj: the complex conjugate; a real tensor itself."""
    return arr(np.conj(x)) if _is_complex(x) else x


def _angle(x):
    """torch.angle: the argument of each element (float; pi for negative reals, 0 else)."""
    if x.dtype.kind in "biu":
        x = x.astype(np.float32)
    with quiet():
        r = arr(np.angle(x))
    if not _is_complex(x):  # torch keeps NaN where numpy's arctan2 gives 0 or pi
        r = np.where(np.isnan(x), x, r).astype(x.dtype, copy=False)
    return r.astype(part_dtype(x.dtype.name), copy=False)


def _view_as_real(x):
    """torch.view_as_real: a complex tensor as a float tensor with a last dim of 2."""
    if not _is_complex(x):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return x.view(_PART[x.dtype.name]).reshape(x.shape + (2,))


def _view_as_complex(x):
    """torch.view_as_complex: a float tensor whose last dim is 2 as a complex tensor."""
    if x.dtype.name not in ("float32", "float64"):
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: "
                           f"{torch_scalar_name(x.dtype)}")
    if x.ndim == 0 or x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    c = np.ascontiguousarray(x).view(_WHOLE[x.dtype.name])
    return c.reshape(x.shape[:-1])


def _view_as_real_info(args):
    a = args[0]
    if a.dtype is not None and a.dtype not in COMPLEX:
        raise ShapeMismatch("view_as_real is only supported for complex tensors, got "
                            f"{a.dtype}")
    return TensorInfo(part_dtype(a.dtype), None if a.shape is None else a.shape + (2,))


def _view_as_complex_info(args):
    a = args[0]
    if a.dtype is not None and a.dtype not in ("float32", "float64"):
        raise ShapeMismatch(f"view_as_complex needs a float or double tensor, got {a.dtype}")
    if a.shape is not None and (not a.shape or a.shape[-1] not in (2, None) and
                                isinstance(a.shape[-1], int)):
        raise ShapeMismatch("view_as_complex needs a last dimension of size 2")
    dtype = _WHOLE.get(a.dtype) if a.dtype else None
    return TensorInfo(dtype, None if a.shape is None else a.shape[:-1])


def _complex(real, imag):
    """torch.complex(real, imag): both float (or double) tensors of one dtype."""
    names = (real.dtype.name, imag.dtype.name)
    if any(n not in FLOAT for n in names):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{torch_scalar_name(real.dtype)} and "
                           f"{torch_scalar_name(imag.dtype)}")
    if names[0] != names[1]:
        raise RuntimeError(f"Expected object of scalar type {torch_scalar_name(real.dtype)} "
                           f"but got scalar type {torch_scalar_name(imag.dtype)} for second "
                           "argument")
    out = np.empty(np.broadcast_shapes(real.shape, imag.shape), _WHOLE[names[0]])
    out.real, out.imag = real, imag
    return out


def _complex_info(args):
    a, b = args[0], args[1]
    for x in (a, b):
        if x.dtype is not None and x.dtype not in FLOAT:
            raise ShapeMismatch(f"torch.complex needs float or double tensors, got {x.dtype}")
    if a.dtype is not None and b.dtype is not None and a.dtype != b.dtype:
        raise ShapeMismatch(f"torch.complex needs parts of one dtype, got {a.dtype} and "
                            f"{b.dtype}")
    from ember.ops.tensorinfo import broadcast
    return TensorInfo(_WHOLE.get(a.dtype or b.dtype), broadcast(a.shape, b.shape))


reg("tensor.real", "(Tensor self) -> Tensor", _real, ("torch.real", "Tensor.real"),
    _part_info, doc="The real parts of a complex tensor (a view); a real tensor itself.")
reg("tensor.imag", "(Tensor self) -> Tensor", _imag, ("torch.imag", "Tensor.imag"),
    _part_info, may_raise=True, doc="The imaginary parts of a complex tensor (a view).")
reg("tensor.conj", "(Tensor self) -> Tensor", _conj,
    ("torch.conj", "Tensor.conj", "torch.conj_physical", "Tensor.conj_physical"), _same_info,
    doc="The complex conjugate; a real tensor itself.")
reg("tensor.resolve_conj", "(Tensor self) -> Tensor", lambda x: x,
    ("Tensor.resolve_conj", "torch.resolve_conj", "Tensor.resolve_neg", "torch.resolve_neg"),
    _same_info, doc="x itself: ember's conj() is computed at once, so no conjugate or "
    "negative bit is left to resolve.")
reg("tensor.is_conj", "(Tensor self) -> bool", lambda x: False,
    ("Tensor.is_conj", "torch.is_conj", "Tensor.is_neg", "torch.is_neg"),
    doc="False: ember's conj() is computed at once (no lazy conjugate bit).")
reg("tensor.angle", "(Tensor self) -> Tensor", _angle, ("torch.angle", "Tensor.angle"),
    _part_info, doc="The argument of each element (float; int tensors give float32).")
reg("tensor.view_as_real", "(Tensor self) -> Tensor", _view_as_real,
    ("torch.view_as_real",), _view_as_real_info, may_raise=True,
    doc="A complex tensor as a float tensor with a last dim of 2 (shares memory).")
reg("tensor.view_as_complex", "(Tensor self) -> Tensor", _view_as_complex,
    ("torch.view_as_complex",), _view_as_complex_info, may_raise=True,
    doc="A float tensor whose last dim is 2 as a complex tensor.")
reg("tensor.complex", "(Tensor real, Tensor imag) -> Tensor", _complex, ("torch.complex",),
    _complex_info, may_raise=True, doc="A complex tensor from real and imaginary parts.")



def _polar(r, theta):
    """torch.polar(abs, angle): abs * (cos(angle) + i sin(angle)), both of one float dtype."""
    out = _complex(r, theta)  # torch.complex's dtype checks and broadcast; values replaced
    with quiet():
        out.real, out.imag = r * np.cos(theta), r * np.sin(theta)
    return out


reg("tensor.polar", "(Tensor abs, Tensor angle) -> Tensor", _polar, ("torch.polar",),
    _complex_info, may_raise=True, doc="A complex tensor from magnitudes and angles.")
reg("tensor.is_complex", "(Tensor self) -> bool", _is_complex,
    ("torch.is_complex", "Tensor.is_complex"), pure=True,
    doc="True for complex64 / complex128 tensors.")
