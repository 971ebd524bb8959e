"""Elementwise binary tensor operators: arithmetic, comparisons, maximum/minimum — each
for tensor ⊕ tensor, tensor ⊕ scalar and scalar ⊕ tensor, with in-place forms (add_,
mul_, …) where torch has them. Logical and bitwise ops, where and masked_fill are in
tensor_logic.

Dtypes follow torch.result_type (see tensorinfo): int tensor + 0.5 is float32,
int / int is float32, bool + 1 is int64, comparisons give bool, a zero-dim
float64 tensor does not widen a float32 one. Same-dtype tensors take a fast
path straight to the numpy ufunc.
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import (
    arr,
    binary_info,
    broadcast_error,
    compare_info,
    div_info,
    fit_scalar,
    float_dtype,
    inplace_info,
    quiet,
    reg,
    scalar_dtype,
    tensors_dtype,
    torch_scalar_name,
)
from ember.ops.tensorinfo import TensorInfo, to_float

# ----------------------------------------------------------------------------- kernels


def tt_kernel(ufunc, check=None):
    """The tensor-tensor kernel of ufunc: torch's result dtype, computed in that dtype.
    check(rt, a, b) may refuse an operation torch refuses (bool subtraction, x // 0)."""
    def kernel(a, b):
        try:
            if a.dtype == b.dtype and check is None:
                r = ufunc(a, b)
                return r if type(r) is np.ndarray and r.dtype == a.dtype else _typed(r, a.dtype)
            rt = tensors_dtype(a, b)
            if check is not None:
                check(rt, a, b)
            return _typed(ufunc(a, b, dtype=rt, casting="unsafe"), rt)
        except ValueError as e:
            raise broadcast_error(a, b) or e from None
    return kernel


def ts_kernel(ufunc, check=None, reflected=False):
    """The tensor-scalar kernel of ufunc (scalar-tensor if reflected): a Python number is
    weak, so it only changes the dtype across categories (int tensor + 0.5 is float32)."""
    def kernel(a, s):
        if check is None and type(s) is float and a.dtype.kind == "f" and a.ndim:
            # The hot case (x * 0.5 on a float tensor): numpy's weak Python float keeps the
            # tensor's dtype, as torch does; 0-d arrays take the general path.
            return ufunc(s, a) if reflected else ufunc(a, s)
        rt = scalar_dtype(a, s)
        if check is not None:
            if reflected:
                check(rt, s, a)
            else:
                check(rt, a, s)
        if rt == a.dtype:
            s = fit_scalar(s, rt)
            return _typed(ufunc(s, a) if reflected else ufunc(a, s), rt)
        return _typed(ufunc(s, a, dtype=rt, casting="unsafe") if reflected else
                      ufunc(a, s, dtype=rt, casting="unsafe"), rt)
    return kernel


def _typed(r, rt):
    """r as an ndarray of dtype rt (numpy has no bool loop for power: it returns int8)."""
    if type(r) is not np.ndarray:
        r = np.asarray(r)
    return r if r.dtype == rt else r.astype(rt)


def _is_bool(v) -> bool:
    return type(v) is bool or isinstance(v, np.ndarray) and v.dtype == np.bool_


def _no_bool_sub(rt, a, b):
    """torch refuses a - b when either operand is a bool (tensor or Python bool)."""
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not "
                           "supported; use the `^` or logical_xor() operator instead")


def _not_complex(rt, what):
    """torch has no complex kernel for ordering, floor division or remainder."""
    if rt.kind == "c":
        raise NotImplementedError(f'"{what}" not implemented for \'{torch_scalar_name(rt)}\'')


def _real_divisor(what):
    def check(rt, a, b):
        _not_complex(rt, what)
        _int_divisor(rt, a, b)
    return check


def _int_divisor(rt, a, b):
    """Integer division or modulo by zero raises (torch), instead of giving 0 (numpy)."""
    if rt == np.bool_:
        raise RuntimeError("floor division and remainder are not implemented for bool tensors")
    if rt.kind in "iu" and not np.all(b):
        raise RuntimeError("ZeroDivisionError: integer division or modulo by zero")


def _int_pow(rt, a, e):
    """Integers to negative integer powers raise, as in torch."""
    if rt.kind in "biu" and np.any(np.asarray(e) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed")


def _no_bool_rpow(rt, base, e):
    if rt == np.bool_:
        raise RuntimeError("pow is not implemented for a bool base and a bool tensor exponent")
    _int_pow(rt, base, e)


def _torch_broadcast(kernel):
    """kernel(a, b, ...) raising torch's RuntimeError, not numpy's ValueError, when the
    tensors' shapes do not broadcast."""
    def checked(a, b, *rest):
        try:
            return kernel(a, b, *rest)
        except ValueError as e:
            if not isinstance(b, np.ndarray):
                raise
            raise broadcast_error(a, b) or e from None
    checked.__doc__ = kernel.__doc__
    return checked


@_torch_broadcast
def _truediv(a, b):
    """a / b: always floating (int / int is float32)."""
    rt = float_dtype(tensors_dtype(a, b))
    with quiet():
        return arr(np.true_divide(a, b, dtype=rt, casting="unsafe"))


def _truediv_scalar(a, s):
    rt = float_dtype(scalar_dtype(a, s))
    if s != 0 and rt == a.dtype:
        return arr(np.true_divide(a, s))
    with quiet():
        return arr(np.true_divide(a, s, dtype=rt, casting="unsafe"))


def _rtruediv_scalar(a, s):
    rt = float_dtype(scalar_dtype(a, s))
    with quiet():
        return arr(np.true_divide(s, a, dtype=rt, casting="unsafe"))


@_torch_broadcast
def _div_mode(a, b, mode):
    """torch.div with rounding_mode None, "trunc" or "floor"."""
    if mode is None:
        return _truediv(a, b) if isinstance(b, np.ndarray) else _truediv_scalar(a, b)
    rt = tensors_dtype(a, b) if isinstance(b, np.ndarray) else scalar_dtype(a, b)
    if mode == "floor":
        _int_divisor(rt, a, b)
        with quiet():
            return arr(np.floor_divide(a, b, dtype=rt, casting="unsafe"))
    if mode != "trunc":
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                         f"but found '{mode}'")
    if rt.kind in "biu":
        _int_divisor(rt, a, b)
        q = np.floor_divide(a, b, dtype=rt, casting="unsafe")
        fix = (np.remainder(a, b, dtype=rt, casting="unsafe") != 0) & ((np.asarray(a) < 0) !=
                                                                        (np.asarray(b) < 0))
        return arr(q + fix.astype(rt))
    with quiet():
        return arr(np.trunc(np.true_divide(a, b, dtype=rt, casting="unsafe")))


# ----------------------------------------------------------------------------- arithmetic


def _is_complex(v) -> bool:
    return type(v) is complex or type(v) is np.ndarray and v.dtype.kind == "c"


def _multiply(a, b, out=None, dtype=None, casting="same_kind"):
    """np.multiply, but complex products as torch computes them: (ac - bd) + (ad + bc)i
    from separately rounded products (numpy's complex loop fuses them into FMAs, which
    changes the last bit of about 40% of the results)."""
    if not (_is_complex(a) or _is_complex(b) or dtype is not None and
            np.dtype(dtype).kind == "c"):
        return np.multiply(a, b, out=out, dtype=dtype, casting=casting)
    rt = np.dtype(dtype) if dtype is not None else np.result_type(a, b)
    x, y = np.asarray(a).astype(rt, copy=False), np.asarray(b).astype(rt, copy=False)
    r = np.empty(np.broadcast_shapes(x.shape, y.shape), rt)
    r.real = x.real * y.real - x.imag * y.imag
    r.imag = x.real * y.imag + x.imag * y.real
    if out is None:
        return r
    out[...] = r
    return out


_ARITH = [
    # name, ufunc, commutative, check, torch function names
    ("add", np.add, True, None, ("torch.add",)),
    ("sub", np.subtract, False, _no_bool_sub, ("torch.sub", "torch.subtract")),
    ("mul", _multiply, True, None, ("torch.mul", "torch.multiply")),
    ("floordiv", np.floor_divide, False, _real_divisor("div_floor_cpu"),
     ("torch.floor_divide",)),
    ("mod", np.remainder, False, _real_divisor("remainder_cpu"), ("torch.remainder",)),
    ("pow", np.power, False, _int_pow, ("torch.pow",)),
]
_METHOD = {"floordiv": "floor_divide", "mod": "remainder"}


def _register_arith(name, ufunc, comm, check, torch_names):
    method = f"Tensor.{_METHOD.get(name, name)}"
    pyname = f"Tensor.__{name}__"
    with_ignore = name in ("floordiv", "mod", "pow")
    rcheck = _no_bool_rpow if name == "pow" else check
    tt, ts, rts = tt_kernel(ufunc, check), ts_kernel(ufunc, check), ts_kernel(ufunc, rcheck, reflected=True)
    if with_ignore:
        tt, ts, rts = _quiet(tt), _quiet(ts), _quiet(rts)
    reg(f"tensor.{name}", "(Tensor self, Tensor other) -> Tensor", tt,
        (pyname, method) + torch_names, binary_info, commutative=comm, elementwise=True,
        may_raise=True, doc=f"Elementwise {name} of two tensors (broadcasting, torch promotion).")
    reg(f"tensor.{name}_scalar", "(Tensor self, Scalar other) -> Tensor", ts,
        (pyname, method) + torch_names, binary_info, elementwise=True, may_raise=True,
        doc=f"Elementwise {name} of a tensor and a Python number.")
    reg(f"tensor.r{name}_scalar", "(Tensor self, Scalar other) -> Tensor", rts,
        (f"Tensor.__r{name}__",), binary_info, elementwise=True, may_raise=True,
        doc=f"Elementwise {name} of a Python number and a tensor (reflected operand order).")
    if name == "pow":  # torch.pow(2, x): the number first
        reg("tensor.pow_number_base", "(Scalar self, Tensor exponent) -> Tensor",
            lambda s, x: rts(x, s), ("torch.pow",),
            lambda a: binary_info([a[1], a[0]]), elementwise=True, may_raise=True,
            doc="torch.pow(number, exponent): the number to the power of each element.")


def _quiet(kernel):
    def silenced(a, b):
        with quiet():
            return kernel(a, b)
    return silenced


for _row in _ARITH:
    _register_arith(*_row)

reg("tensor.fmod", "(Tensor self, Tensor other) -> Tensor",
    _quiet(tt_kernel(np.fmod, _real_divisor("fmod_cpu"))), ("Tensor.fmod", "torch.fmod"),
    binary_info, may_raise=True,
    doc="Elementwise C fmod (the remainder has the dividend's sign), torch promotion.")
reg("tensor.fmod_scalar", "(Tensor self, Scalar other) -> Tensor",
    _quiet(ts_kernel(np.fmod, _real_divisor("fmod_cpu"))), ("Tensor.fmod", "torch.fmod"),
    binary_info, may_raise=True, doc="Elementwise C fmod of a tensor by a Python number.")


def _alpha(ufunc):
    tt, scale = tt_kernel(ufunc), ts_kernel(np.multiply)

    def kernel(a, b, alpha):
        if isinstance(alpha, float) and a.dtype.kind in "biu":
            raise RuntimeError("For integral input tensors, argument alpha must not be a "
                               "floating point number.")
        if alpha != 1:
            b = scale(b, alpha)
        return tt(a, b)
    return kernel


def _rsub(a, b, alpha):
    """torch.rsub(a, b, alpha): b - alpha * a."""
    if isinstance(b, np.ndarray):
        return _SUB_ALPHA(b, a, alpha)
    if isinstance(alpha, float) and a.dtype.kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a "
                           "floating point number.")
    return _RSUB_SCALAR(a if alpha == 1 else _MUL_SCALAR(a, alpha), b)


_SUB_ALPHA, _MUL_SCALAR = _alpha(np.subtract), ts_kernel(np.multiply)
_RSUB_SCALAR = ts_kernel(np.subtract, _no_bool_sub, reflected=True)
reg("tensor.rsub_tensor", "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", _rsub,
    ("torch.rsub",), binary_info, may_raise=True, doc="torch.rsub: other - alpha * self.")
reg("tensor.rsub_alpha_scalar", "(Tensor self, Scalar other, *, Scalar alpha=1) -> Tensor",
    _rsub, ("torch.rsub",), binary_info, may_raise=True,
    doc="torch.rsub of a tensor and a number: other - alpha * self.")

for _n, _fn in (("add", np.add), ("sub", np.subtract)):
    reg(f"tensor.{_n}_alpha", "(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        _alpha(_fn), (f"torch.{_n}", f"Tensor.{_n}"), binary_info, may_raise=True,
        doc=f"torch.{_n}(self, other, alpha=a): self {'+' if _n == 'add' else '-'} a * other.")



def _alpha_scalar(ufunc):
    ts = ts_kernel(ufunc)

    def kernel(a, b, alpha=1):
        if isinstance(alpha, float) and a.dtype.kind in "biu":
            raise RuntimeError("For integral input tensors, argument alpha must not be a "
                               "floating point number.")
        return ts(a, b * alpha if alpha != 1 else b)
    return kernel


for _n, _fn in (("add", np.add), ("sub", np.subtract)):
    reg(f"tensor.{_n}_alpha_scalar", "(Tensor self, Scalar other, *, Scalar alpha=1) -> Tensor",
        _alpha_scalar(_fn), (f"torch.{_n}", f"Tensor.{_n}"), binary_info, may_raise=True,
        doc=f"torch.{_n}(self, number, alpha=a): self {'+' if _n == 'add' else '-'} a * number.")

reg("tensor.truediv", "(Tensor self, Tensor other) -> Tensor", _truediv,
    ("Tensor.__truediv__", "Tensor.div", "Tensor.divide", "Tensor.true_divide", "torch.div",
     "torch.divide", "torch.true_divide"), div_info, elementwise=True,
    doc="a / b, always floating point (int / int is float32).")
reg("tensor.truediv_scalar", "(Tensor self, Scalar other) -> Tensor", _truediv_scalar,
    ("Tensor.__truediv__", "Tensor.div", "Tensor.divide", "torch.div", "torch.divide"),
    div_info, elementwise=True, doc="tensor / number, always floating point.")
reg("tensor.rtruediv_scalar", "(Tensor self, Scalar other) -> Tensor", _rtruediv_scalar,
    ("Tensor.__rtruediv__",), div_info, elementwise=True,
    doc="number / tensor, always floating point.")


def _div_mode_info(args):
    mode = args[2].const
    info = binary_info(args)
    return info if mode in ("trunc", "floor") else TensorInfo(to_float(info.dtype), info.shape)


reg("tensor.div_mode", "(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
    _div_mode, ("torch.div", "Tensor.div", "torch.divide", "Tensor.divide"), _div_mode_info,
    may_raise=True, doc="torch.div with rounding_mode None, 'trunc' or 'floor'.")
reg("tensor.div_mode_scalar", "(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
    _div_mode, ("torch.div", "Tensor.div", "torch.divide", "Tensor.divide"), _div_mode_info,
    may_raise=True, doc="torch.div of a tensor by a number with a rounding mode.")

# ----------------------------------------------------------------------------- in place


def _store(ufunc, a, b, rt):
    if rt.kind == "f" and a.dtype.kind not in "fc" or rt.kind in "iu" and a.dtype.kind == "b" \
            or rt.kind == "c" and a.dtype.kind != "c":
        raise RuntimeError(f"result type {torch_scalar_name(rt)} can't be cast to the desired "
                           f"output type {torch_scalar_name(a.dtype)}")
    try:
        ufunc(a, b, out=a, dtype=rt, casting="unsafe")
    except ValueError as e:
        shape = np.shape(b)
        raise RuntimeError(f"in-place operation on a tensor of shape {list(a.shape)} with an "
                           f"operand of shape {list(shape)}: {e}") from None
    return a


def _inplace(ufunc, check=None, float_result=False):
    def kernel(a, b):
        rt = tensors_dtype(a, b) if isinstance(b, np.ndarray) else scalar_dtype(a, b)
        if float_result:
            rt = float_dtype(rt)
        if check is not None:
            check(rt, a, b)
        with quiet():
            return _store(ufunc, a, b, rt)
    return kernel


_INPLACE = [("add", np.add, None, False, "iadd", "+"),
            ("sub", np.subtract, _no_bool_sub, False, "isub", "-"),
            ("mul", _multiply, None, False, "imul", "*"),
            ("div", np.true_divide, None, True, "itruediv", "/"),
            ("pow", np.power, _int_pow, False, "ipow", "**"),
            ("floor_divide", np.floor_divide, _int_divisor, False, "ifloordiv", "//"),
            ("remainder", np.remainder, _int_divisor, False, "imod", "%")]
for _n, _fn, _check, _fl, _dunder, _sym in _INPLACE:
    _k = _inplace(_fn, _check, _fl)
    for _kind in ("Tensor", "Scalar"):
        _suffix = "" if _kind == "Tensor" else "_scalar"
        reg(f"tensor.{_n}{_suffix}_", f"(Tensor self, {_kind} other) -> Tensor", _k,
            (f"Tensor.{_n}_", f"Tensor.__{_dunder}__"), inplace_info, may_raise=True,
            doc=f"In-place {_n}: stores into self and returns self (torch's {_n}_; "
                f"also Tensor.__{_dunder}__, what x {_sym}= y means for a tensor).")

# ----------------------------------------------------------------------------- comparisons


def _cmp_tt(ufunc, name):
    ordering = name not in ("eq", "ne")

    def kernel(a, b):
        if a.dtype != b.dtype:
            rt = tensors_dtype(a, b)
            a, b = a.astype(rt, copy=False), b.astype(rt, copy=False)
        if ordering:
            _not_complex(a.dtype, f"{name}_cpu")
        try:
            return arr(ufunc(a, b))
        except ValueError as e:
            raise broadcast_error(a, b) or e from None
    return kernel


def _cmp_ts(ufunc, name):
    ordering = name not in ("eq", "ne")

    def kernel(a, s):
        rt = scalar_dtype(a, s)
        if ordering:
            _not_complex(rt, f"{name}_cpu")
        if rt != a.dtype:
            a = a.astype(rt)  # torch compares an int tensor with 0.5 in float32
        return arr(ufunc(a, fit_scalar(s, rt)))
    return kernel


_CMP = [("eq", np.equal, ("torch.eq",)), ("ne", np.not_equal, ("torch.ne", "torch.not_equal")),
        ("lt", np.less, ("torch.lt", "torch.less")),
        ("le", np.less_equal, ("torch.le", "torch.less_equal")),
        ("gt", np.greater, ("torch.gt", "torch.greater")),
        ("ge", np.greater_equal, ("torch.ge", "torch.greater_equal"))]
for _n, _fn, _names in _CMP:
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor", _cmp_tt(_fn, _n),
        (f"Tensor.__{_n}__", f"Tensor.{_n}") + _names, compare_info, elementwise=True,
        doc=f"Elementwise comparison ({_n}) of two tensors; bool result.")
    reg(f"tensor.{_n}_scalar", "(Tensor self, Scalar other) -> Tensor", _cmp_ts(_fn, _n),
        (f"Tensor.__{_n}__", f"Tensor.{_n}") + _names, compare_info, elementwise=True,
        doc=f"Elementwise comparison ({_n}) of a tensor with a number; bool result.")


def _equal(a, b):
    """torch.equal: same shape and same values."""
    return bool(a.shape == b.shape and np.array_equal(a, b))


reg("tensor.equal", "(Tensor self, Tensor other) -> bool", _equal,
    ("torch.equal", "Tensor.equal"), doc="True if both tensors have the same shape and values.")


@_torch_broadcast
def _isclose(a, b, rtol, atol, equal_nan):
    """torch.isclose: |a - b| <= atol + rtol * |b| elementwise (nan equal to nan only with
    equal_nan); both tensors of one dtype."""
    if a.dtype != b.dtype:
        raise RuntimeError(f"{torch_scalar_name(b.dtype)} did not match "
                           f"{torch_scalar_name(a.dtype)}")
    if a.dtype.kind == "b":
        return arr(np.equal(a, b))
    with quiet():
        return arr(np.isclose(a, b, rtol, atol, equal_nan))


def _allclose(a, b, rtol, atol, equal_nan):
    """torch.allclose: isclose everywhere."""
    return bool(_isclose(a, b, rtol, atol, equal_nan).all())


_CLOSE = ("(Tensor self, Tensor other, float rtol=0.00001, float atol=0.00000001, "
          "bool equal_nan=False)")
reg("tensor.isclose", _CLOSE + " -> Tensor", _isclose, ("torch.isclose", "Tensor.isclose"),
    compare_info, may_raise=True)
reg("tensor.allclose", _CLOSE + " -> bool", _allclose, ("torch.allclose", "Tensor.allclose"),
    may_raise=True)
def _as_tensor(ufunc):
    return lambda x: arr(ufunc(x))


for _n, _fn in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)):
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _as_tensor(_fn),
        (f"torch.{_n}", f"Tensor.{_n}"), lambda a: TensorInfo("bool", a[0].shape),
        doc=f"Elementwise {_n}; bool result.")

# ----------------------------------------------------------------------------- maximum, minimum

def _no_complex_extremum(name):
    def check(rt, a, b):
        if rt.kind == "c":
            raise RuntimeError(f"{name} not implemented for complex tensors.")
    return check


for _n, _fn in (("maximum", np.maximum), ("minimum", np.minimum)):
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor",
        tt_kernel(_fn, _no_complex_extremum(_n)),
        (f"torch.{_n}", f"Tensor.{_n}", f"torch.{_n[:3]}", f"Tensor.{_n[:3]}"), binary_info,
        commutative=True, elementwise=True,
        doc=f"Elementwise {_n} of two tensors (NaN propagates).")
