"""math functions, str()/repr()/format()/print(), and exceptions."""

from __future__ import annotations

import math

from ember.ops.int64 import check, overflow_error
from ember.ops.registry import OpDef, register
from ember.ops.tensor_str import format_values, percent_format, py_format, py_repr, py_str


def _reg(name, schema, kernel, python=(), **flags):
    register(OpDef(name, f"{name}{schema}", kernel, python_names=python, **flags))


# ----------------------------------------------------------------------------- math

_F1 = ["sqrt", "exp", "expm1", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
       "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "degrees", "radians",
       "erf", "erfc", "gamma", "lgamma"]
for _n in _F1:
    _reg(f"math.{_n}", "(float x) -> float", getattr(math, _n), (f"math.{_n}",),
         may_raise=True)


def _int_result(fn, name):
    """fn, raising OverflowError when its int result leaves int64 (ember's int)."""
    def kernel(*args):
        return check(fn(*args), name, *args)
    kernel.__name__ = fn.__name__
    return kernel


def _factorial(n):
    if n > 20:  # 21! leaves int64; do not compute a huge number first
        raise overflow_error("math.factorial", n)
    return math.factorial(n)


for _n in ["floor", "ceil", "trunc"]:
    _reg(f"math.{_n}", "(float x) -> int", _int_result(getattr(math, _n), f"math.{_n}"),
         (f"math.{_n}",), may_raise=True)
    _reg(f"math.{_n}_int", "(int x) -> int", getattr(math, _n), (f"math.{_n}",))
for _n in ["isnan", "isinf", "isfinite"]:
    _reg(f"math.{_n}", "(float x) -> bool", getattr(math, _n), (f"math.{_n}",))
for _n in ["atan2", "pow", "fmod", "hypot", "copysign", "remainder"]:
    _reg(f"math.{_n}", "(float x, float y) -> float", getattr(math, _n), (f"math.{_n}",),
         may_raise=True)


def _log(x, base):
    return math.log(x) if base is None else math.log(x, base)


_reg("math.log", "(float x, float? base=None) -> float", _log, ("math.log",), may_raise=True)
_reg("math.gcd", "(int a, int b) -> int", _int_result(math.gcd, "math.gcd"), ("math.gcd",),
     may_raise=True)
_reg("math.factorial", "(int n) -> int", _factorial, ("math.factorial",), may_raise=True)
_reg("math.isclose", "(float a, float b) -> bool", math.isclose, ("math.isclose",))
_reg("math.ldexp", "(float x, int i) -> float", math.ldexp, ("math.ldexp",), may_raise=True)
_reg("math.frexp", "(float x) -> Tuple[float, int]", math.frexp, ("math.frexp",))
_reg("math.modf", "(float x) -> Tuple[float, float]", math.modf, ("math.modf",))
_reg("math.fsum", "(List[float] xs) -> float", math.fsum, ("math.fsum",), may_raise=True,
     pure=False)
_reg("math.prod_int", "(List[int] xs) -> int", _int_result(math.prod, "math.prod"),
     ("math.prod",), may_raise=True, pure=False)
_reg("math.prod", "(List[float] xs) -> float", math.prod, ("math.prod",), pure=False)
_reg("math.isqrt", "(int n) -> int", math.isqrt, ("math.isqrt",), may_raise=True)
for _n in ("comb", "perm", "lcm"):
    _reg(f"math.{_n}", "(int a, int b) -> int", _int_result(getattr(math, _n), f"math.{_n}"),
         (f"math.{_n}",), may_raise=True)
_reg("math.dist", "(List[float] p, List[float] q) -> float", math.dist, ("math.dist",),
     may_raise=True, pure=False)
_reg("dtype.str", "(ScalarType d) -> str", lambda d: f"torch.{d}", (),
     doc="str(dtype): torch's spelling (torch.float32); ember's dtype value is numpy's name.")
_reg("builtins.pow_mod", "(int base, int exp, int mod) -> int", pow, ("builtins.pow",),
     may_raise=True, doc="pow(base, exp, mod): modular power (a negative exp inverts).")
_reg("float.is_integer", "(float self) -> bool", float.is_integer, ("float.is_integer",))

# ----------------------------------------------------------------------------- text


def _print(line):
    print(line, end="")


# (tensors, also inside containers, are written as torch writes them: tensor_str)
_reg("builtins.str", "(t x) -> str", py_str, ("builtins.str",))
_reg("builtins.repr", "(t x) -> str", py_repr, ("builtins.repr",))
_reg("builtins.format", "(t x, str spec=\"\") -> str", py_format, ("builtins.format",),
     may_raise=True)
_reg("builtins.print", "(str line) -> None", _print, (), pure=False, fold=False)
_reg("str.format_map", "(str self, Dict[str, v] mapping) -> str",
     lambda fmt, d: format_values(fmt, (), tuple(d), tuple(d.values())), ("str.format_map",),
     may_raise=True, doc="fmt.format_map(d), and fmt.format(**d) of a dict variable: "
     "CPython's str.format with d's items as keyword arguments.")
_reg("str.format_values", "(str fmt, t args, u names, v values) -> str", format_values, (),
     may_raise=True, doc="fmt.format(*args, **kwargs) of a format string known at run time")
# hash: CPython's own (a str's is salted per process, so never folded into an artifact)
_reg("builtins.hash", "(t x) -> int", hash, ("builtins.hash",), may_raise=True, fold=False)
for _n, _k in (("bin", bin), ("oct", oct), ("hex", hex)):
    _reg(f"builtins.{_n}", "(int x) -> str", _k, (f"builtins.{_n}",))

# ----------------------------------------------------------------------------- devices
# A torch.device is its string ("cpu", "cuda:1") in ember, as x.device is.

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",
                 "ve", "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")


def _device(spec):
    """torch.device(spec): spec checked as torch checks it ("type" or "type:index")."""
    kind, _, index = spec.partition(":")
    if kind not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                           f"of device string: {spec}")
    if _ and not (index.isdigit() and index.isascii() and (index == "0" or index[0] != "0")):
        raise RuntimeError(f"Invalid device string: '{spec}'")
    return spec


def _device_index(kind, index):
    if index < 0:
        raise RuntimeError(f"Device index must not be negative, got {index}")
    return _device(f"{kind}:{index}") if ":" not in kind else _device(kind)


_reg("device.new", "(str type) -> str", _device, ("torch.device",), may_raise=True)
_reg("device.new_index", "(str type, int index) -> str", _device_index, ("torch.device",),
     may_raise=True)
_reg("device.type", "(str device) -> str", lambda d: d.partition(":")[0], ())

# ----------------------------------------------------------------------------- exceptions

EXCEPTION_CLASSES: dict[str, type] = {c.__name__: c for c in (
    BaseException, Exception, ArithmeticError, AssertionError, AttributeError, IndexError,
    KeyError, LookupError, NotImplementedError, OverflowError, RecursionError, RuntimeError,
    StopIteration, TypeError, ValueError, ZeroDivisionError, FloatingPointError,
    UnicodeError, KeyboardInterrupt, NameError, UnboundLocalError,
)}
"""Exception classes a script may raise and catch, by name (the artifact names them)."""


_USER_CLASSES: dict[str, type] = {}


def exception_class(kind: str) -> type:
    """The class an exception name stands for: a builtin (ValueError), or a user class as
    the chain of its names down to a builtin base ("MyError:AppError:ValueError"), made
    once per process (so `except MyError` matches what `raise MyError` made)."""
    cls = EXCEPTION_CLASSES.get(kind)
    if cls is not None:
        return cls
    cls = _USER_CLASSES.get(kind)
    if cls is not None:
        return cls
    name, sep, base = kind.partition(":")
    if not sep or not name.isidentifier():
        raise ValueError(f"unknown exception class {kind!r}")
    cls = type(name, (exception_class(base),), {"__module__": "ember.script"})
    return _USER_CLASSES.setdefault(kind, cls)


def is_exception_name(kind) -> bool:
    try:
        return isinstance(kind, str) and exception_class(kind) is not None
    except ValueError:
        return False


class ExceptionNames:
    """`name in ExceptionNames()`: a builtin exception name or a user class chain."""

    def __contains__(self, kind) -> bool:
        return is_exception_name(kind)


def exc_new(kind: str, msg):
    cls = exception_class(kind)
    return cls() if msg is None else cls(msg)


def exc_new_arg(kind: str, arg):
    return exception_class(kind)(arg)


def exc_str(e) -> str:
    return str(e)


def exception_matches(e: BaseException, names) -> bool:
    """True if e is an instance of one of the named classes (all Exceptions if names is empty)."""
    if not names:
        return isinstance(e, Exception)
    return any(isinstance(e, exception_class(n)) for n in names)


_reg("exc.new", "(str kind, str? msg) -> exc", exc_new, (), may_raise=True, fold=False)
_reg("exc.new_arg", "(str kind, t arg) -> exc", exc_new_arg, (), may_raise=True, fold=False)
_reg("exc.str", "(exc e) -> str", exc_str, (), fold=False)


def exc_new_args(kind: str, args):
    """An exception made with several arguments (`ValueError("bad", 3)`: its args are
    the tuple's items, so str(e) is the tuple's str and repr(e) CPython's)."""
    return exception_class(kind)(*args)


_reg("exc.new_args", "(str kind, t args) -> exc", exc_new_args, (), may_raise=True,
     fold=False, doc="An exception class made with the items of a tuple as its arguments.")
_reg("exc.new_user_args", "(str kind, t args) -> exc", exc_new_args, (), may_raise=True,
     fold=False, doc="A user exception class made with the items of a tuple as its "
                     "arguments.")
_reg("exc.new_user", "(str kind, str? msg) -> exc", exc_new, (), may_raise=True, fold=False,
     doc="A user exception class (kind: the chain 'MyError:ValueError') with a message.")
_reg("exc.new_user_arg", "(str kind, t arg) -> exc", exc_new_arg, (), may_raise=True,
     fold=False, doc="A user exception class made with one argument of any type.")


def exc_set_field(e, name: str, value):
    """self.name = value in a user exception class's __init__ (exc_fields.py)."""
    setattr(e, name, value)
    return e


def exc_get_field(e, name: str):
    """e.name of a user exception's field: CPython's AttributeError if it has none."""
    try:
        return e.__dict__[name]
    except KeyError:
        raise AttributeError(f"'{type(e).__name__}' object has no attribute "
                             f"'{name}'") from None


_reg("exc.set_field", "(exc e, str name, t value) -> exc", exc_set_field, (), fold=False,
     pure=False)
_reg("exc.get_field", "(exc e, str name) -> t", exc_get_field, (), may_raise=True,
     fold=False)


def exc_set_cause(e, cause):
    """raise e from cause: Python's __cause__ (from None suppresses the context)."""
    e.__cause__ = cause
    return e


_reg("exc.set_cause", "(exc e, exc? cause) -> exc", exc_set_cause, (), fold=False,
     pure=False)


def _percent_format(fmt, args):
    return percent_format(fmt, args)


def _range_reversed(start, stop, step):
    r = range(start, stop, step)[::-1]
    return (r.start, r.stop, r.step)


def _range_len(start, stop, step):
    return len(range(start, stop, step))


def _range_item(start, step, i):
    return start + i * step


_reg("builtins.range_len", "(int start, int stop, int step) -> int", _range_len, (),
     may_raise=True)
_reg("builtins.range_item", "(int start, int step, int i) -> int", _range_item, ())


def _range_getitem(start, stop, step, i):
    """range(start, stop, step)[i], with CPython's IndexError."""
    return range(start, stop, step)[i]


_reg("builtins.range_getitem", "(int start, int stop, int step, int i) -> int",
     _range_getitem, (), may_raise=True)
_reg("builtins.percent_format", "(str fmt, t args) -> str", _percent_format,
     ("str.__mod__",), may_raise=True)
_reg("builtins.range_reversed", "(int start, int stop, int step) -> Tuple[int, int, int]",
     _range_reversed, (), may_raise=True)


# ----------------------------------------------------------------------------- torch.jit queries

_reg("jit.is_scripting", "() -> bool", lambda: True,
     ("torch.jit.is_scripting", "torch.jit._script.is_scripting"),
     doc="True: compiled code is always scripted (so `if not torch.jit.is_scripting():` "
         "branches fold away, as in TorchScript).")
_reg("jit.is_tracing", "() -> bool", lambda: False,
     ("torch.jit.is_tracing", "torch.jit._trace.is_tracing", "torch._C._get_tracing_state"),
     doc="False: ember never traces (torch._C._get_tracing_state() is falsy too).")


def _infer_size(a, b):
    """The broadcast of two sizes (torch._C._infer_size), with torch's error when they
    do not broadcast."""
    n = max(len(a), len(b))
    out = []
    for i in range(n):
        da = a[len(a) - n + i] if len(a) - n + i >= 0 else 1
        db = b[len(b) - n + i] if len(b) - n + i >= 0 else 1
        if da != db and da != 1 and db != 1:
            raise RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b "
                               f"({db}) at non-singleton dimension {i}")
        out.append(db if da == 1 else da)
    return out


_reg("torch.infer_size", "(List[int] a, List[int] b) -> List[int]", _infer_size,
     ("torch._C._infer_size",), may_raise=True,
     doc="torch._C._infer_size(a, b): the size two tensors of sizes a and b broadcast to.")


def _torch_assert(condition, message):
    """torch._assert: AssertionError(message) unless condition holds."""
    if not condition:
        raise AssertionError(message)


_reg("torch.assert", "(bool condition, str message) -> None", _torch_assert,
     ("torch._assert", "torch._assert_async"), pure=False, may_raise=True, fold=False,
     doc="torch._assert(condition, message): raise AssertionError(message) if not condition.")


def _torch_assert_tensor(condition, message):
    """torch._assert of a one-element tensor (its truth, as TorchScript converts it)."""
    if condition.size != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    _torch_assert(bool(condition.reshape(())), message)


_reg("torch.assert_tensor", "(Tensor condition, str message) -> None", _torch_assert_tensor,
     ("torch._assert", "torch._assert_async"), pure=False, may_raise=True, fold=False,
     doc="torch._assert(tensor, message): AssertionError(message) unless the one-element "
     "tensor is true.")


def _torch_check(cond, message):
    """torch._check as TorchScript compiles it: RuntimeError unless cond holds."""
    if not cond:
        raise RuntimeError(message if message is not None else
                           "Expected cond to be True, but got False. (Could this error message "
                           "be improved? If so, please report an enhancement request to "
                           "PyTorch.)")


_reg("torch.check", "(bool cond, str? message=None) -> None", _torch_check,
     ("torch._check",), pure=False, may_raise=True, fold=False,
     doc="torch._check(cond, message=None): raise RuntimeError unless cond.")


def _type_name(v) -> str:
    """type(v).__name__ as CPython gives it for the script's value (a tensor, a numpy
    array here, is torch's 'Tensor')."""
    import numpy as np
    return "Tensor" if isinstance(v, np.ndarray) else type(v).__name__


_reg("builtins.type_name", "(Any a) -> str", _type_name, (), pure=False,
     doc="type(x).__name__.")
