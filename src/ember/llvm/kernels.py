"""Native tensor kernels: operators the LLVM backend runs as its own compiled loops.

With `backend="llvm"` the VM still runs the program; `native_kernel(name, kernel)` gives
each operator of the program what runs it: a native twin where one exists (NATIVE), else
the numpy kernel itself. A twin takes the kernel's arguments, runs natively for what it
covers and calls the numpy kernel for everything else, so results never depend on what
the native tier covers (`coverage()` counts both paths, for reports and tests).

Kernels are LLVM functions built with llvmlite's IR builder; `compile_kernel` compiles
one module (or finds it in the object cache, llvm/cache.py: the key digests the builder's
own source, the kernel's parameters and the target) and returns raw function addresses,
which callers wrap once in a cached ctypes prototype.
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

_ND = np.ndarray
_F32 = np.dtype(np.float32)
_LOCK = threading.Lock()
_COMPILED: dict = {}
_KEEP: list = []
COUNTS: dict = {}
"""(operator name, "native" | "numpy") -> calls, counted while `counting` is on."""


def native_kernel(name: str, kernel):
    """What runs operator `name` under the LLVM backend."""
    factory = NATIVE.get(name) or NOTED.get(name)
    if factory is None:
        return kernel
    return factory(kernel)


def compile_kernel(tag: str, params: tuple, build, symbols: list[str], source: str,
                   arrays: tuple = ()) -> list[int]:
    """Addresses of `symbols` in the module `build(module)` makes, compiled once per
    (tag, params) in this process and kept in the object cache across processes.

    arrays: the indices of the pointer parameters the caller passes as `array(a)` (see
    `array`): each symbol's address is then that of its entry `symbol_a`, which reads
    those arrays' data pointers."""
    memo = (tag, params, arrays)
    hit = _COMPILED.get(memo)
    if hit is not None:
        return hit
    with _LOCK:
        hit = _COMPILED.get(memo)
        if hit is None:
            hit = _COMPILED[memo] = _compile(tag, params, build, symbols, source, arrays)
    return hit


def _layout():
    """objcall's verified object layout (or None), read on first use: importing this
    module (done for every llvm-backend script, cache hits included) loads no llvmlite."""
    from ember.llvm import objcall
    return objcall.LAYOUT


def __getattr__(name):
    """`kernels.array(a)`: how a caller passes an array to a parameter listed in
    compile_kernel's `arrays`: its object address (the entry reads numpy's `data` field at
    the offset objcall.py verified: no ctypes object per array, ~1 us each) or, where that
    layout does not hold, its data pointer. Made on first access. The caller has checked
    the array (type, dtype, layout) and keeps it alive over the call: in a local name,
    never a temporary (`array(a[1:])` may be freed before the call reads it), nor only in
    a cache another thread may clear."""
    if name == "array":
        fn = globals()["array"] = id if _layout() is not None else _data_pointer
        return fn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _data_pointer(a):
    return a.ctypes.data


def _entry(module, name: str, arrays: tuple) -> None:
    """`name_a`: `name` with the parameters in `arrays` taken as ndarray addresses."""
    from llvmlite import ir

    from ember.llvm.layout import PTR

    inner = module.globals[name]
    fn = ir.Function(module, inner.function_type, name + "_a")
    b = ir.IRBuilder(fn.append_basic_block("e"))
    args = list(fn.args)
    layout = _layout()
    if layout is not None:
        for i in arrays:  # 0 (an absent bias) stays null
            obj = args[i]
            null = b.icmp_unsigned("==", obj, ir.Constant(PTR, None))
            known = b.select(null, b.gep(_null_array(b, module), [ir.IntType(64)(0)],
                                         source_etype=ir.IntType(8)), obj)
            data = b.load(b.gep(known, [ir.IntType(64)(layout["data"])],
                                source_etype=ir.IntType(8)), typ=PTR)
            args[i] = b.select(null, ir.Constant(PTR, None), data)
    b.call(inner, args)
    b.ret_void()


def _null_array(b, module):
    """A module global as large as an array object's header: what a null argument's
    `data` load reads instead of address 0 (the loaded value is then discarded)."""
    from llvmlite import ir

    g = module.globals.get("ember_null_array")
    if g is None:
        g = ir.GlobalVariable(module, ir.ArrayType(ir.IntType(8), 128), "ember_null_array")
        g.initializer = ir.Constant(g.value_type, None)
        g.linkage = "internal"
    return g


def _compile(tag, params, build, symbols, source, arrays=()):
    import hashlib

    from llvmlite import ir

    from ember.llvm import cache, jit

    digest = hashlib.sha256((source + _helpers_source()).encode()).hexdigest()[:16]
    layout = _layout()["data"] if arrays and _layout() is not None else None
    key = cache.key("kernel", tag, repr(params), jit.target_key(), digest, repr(arrays),
                    repr(layout))
    hit = cache.load(key)
    if hit is not None:
        obj = hit[1]
    else:
        m = ir.Module(name=f"ember_{tag}")
        m.triple, m.data_layout = jit.target_triple_layout()
        build(m)
        if arrays:
            for sym in symbols:
                _entry(m, sym, arrays)
        obj = jit.compile_ir(str(m))
        cache.store(key, {"kind": "kernel", "tag": tag}, obj)
    loaded = jit.Loaded(obj)
    _KEEP.append(loaded)  # the code lives as long as the process
    return [loaded.address(s + "_a" if arrays else s) for s in symbols]


def _helpers_source() -> str:
    """The IR helpers every kernel builder uses (their text is part of each cache key)."""
    import inspect

    from ember.llvm import kernel_rnn as R

    return "".join(inspect.getsource(f) for f in (R._ptr, R._splat, R._loop, _entry,
                                                   _null_array))


def prototype(*argtypes):
    """A ctypes function type returning nothing (made once per signature by callers)."""
    return ctypes.CFUNCTYPE(None, *argtypes)


RECORDING: list = [None]
"""[the graph.Recorder of a call being planned (llvm/graph.py), or None]: a twin that ran
a native call while it is set calls `note`."""


def note(fn, args, reads=(), writes=(), consts=(), temps=()) -> None:
    """Tell the recorder (RECORDING[0], set) about one native call just made: the ctypes
    function and its arguments, the arrays it read and wrote, the arrays the twin derived
    from frozen data (caches: never written) and scratch arrays whose contents before the
    call do not matter."""
    rec = RECORDING[0]
    if rec is not None:
        rec.note(fn, args, reads, writes, consts, temps)


def decline() -> None:
    """Tell the recorder (RECORDING[0], set) that a native kernel declined a call (returned
    nonzero: a NaN or infinite input of the dynamic int8 product) and the twin computed it
    with its numpy kernel: that recording says nothing about the shape's usual calls
    (llvm/graph.py records the shape again later)."""
    rec = RECORDING[0]
    if rec is not None:
        rec.decline()


_LIBC: dict = {}


def _libc(name):
    fn = _LIBC.get(name)
    if fn is None:
        addr = ctypes.cast(getattr(ctypes.CDLL(None), name), ctypes.c_void_p).value
        fn = _LIBC[name] = prototype(ctypes.c_void_p, ctypes.c_void_p if name == "memcpy"
                                     else ctypes.c_int64, ctypes.c_int64)(addr)
    return fn


def memcpy():
    """libc's memcpy as a ctypes function of (dst, src, nbytes): the copy a twin makes of a
    state it then updates in place, noted so that a plan restores the state each call."""
    return _libc("memcpy")


class NotedZeros:
    """tensor.zeros under the LLVM backend: the kernel's array, its fill noted (libc's
    memset) while a plan records, so a plan can rely on it (an RNN's initial state)."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, *args):
        y = self.kernel(*args)
        if RECORDING[0] is not None and type(y) is _ND and y.flags.c_contiguous and \
                y.base is None:
            note(_libc("memset"), (y.ctypes.data, 0, y.nbytes), (), (y,))
        return y


def count(name: str, where: str) -> None:
    k = (name, where)
    COUNTS[k] = COUNTS.get(k, 0) + 1


def _lstm(kernel):
    from ember.llvm.kernel_rnn import NativeLSTM
    return NativeLSTM(kernel)


class NativeUnary:
    """An activation (or unary math op) as a one-step native fused group: float32 tensors
    run llvm/fused.py's loop (contiguous: natively; otherwise its planned numpy path,
    bit-identical to the kernel); in-place calls and other types run the kernel."""

    def __init__(self, name, kernel, flag):
        from ember.llvm.fused import NativeFusedGroup

        spec = ("fused", 1, (False,), ((name, (0, 1)),), (2,)) if flag else \
            ("fused", 1, (), ((name, (0,)),), (1,))
        self.group = NativeFusedGroup(spec)
        self.kernel = kernel

    def explain(self, x, *flag):
        """("native", None) or ("numpy", why) for a call with these arguments."""
        if type(x) is _ND and x.dtype is _F32 and (not flag or flag[0] is False):
            return self.group.explain((x,))
        return ("numpy", "not a float32 tensor, or in place")

    def __call__(self, x, *flag):
        if type(x) is _ND and x.dtype is _F32 and (not flag or flag[0] is False):
            return self.group(x)
        return self.kernel(x, *flag)


class NativeBinary:
    """A tensor-tensor arithmetic op (add, sub, mul) as a one-step native fused group:
    two float32 tensors of one shape run llvm/fused.py's loop (contiguous: natively, with
    its recycled outputs; otherwise its planned numpy path, bit-identical to the kernel);
    broadcasting, other dtypes and scalars run the kernel."""

    def __init__(self, name, kernel):
        from ember.llvm.fused import NativeFusedGroup

        self.group = NativeFusedGroup(("fused", 2, (), ((name, (0, 1)),), (2,)))
        self.kernel = kernel

    def explain(self, a, b):
        if type(a) is _ND and type(b) is _ND and a.dtype is _F32 and b.dtype is _F32 and \
                a.shape == b.shape:
            return self.group.explain((a, b))
        return ("numpy", "not two float32 tensors of one shape (broadcasting or dtypes): " +
                _describe((a, b)))

    def __call__(self, a, b):
        if type(a) is _ND and type(b) is _ND and a.dtype is _F32 and b.dtype is _F32 and \
                a.shape == b.shape:
            return self.group(a, b)
        return self.kernel(a, b)


def _describe(args):
    from ember.llvm.report import describe_args
    return describe_args(args)


def _binary(name):
    return lambda kernel: NativeBinary(name, kernel)


def _unary(name):
    def factory(kernel):  # (fused.py and llvmlite.ir load with the first activation)
        from ember.llvm.fused import STEPS

        return NativeUnary(name, kernel, STEPS[name][0] == "tf")
    return factory


def _conv2d(kernel):
    from ember.llvm.kernel_conv import NativeConv2d
    return NativeConv2d(kernel)


def _linear(kernel):
    from ember.llvm.kernel_linear import NativeLinear
    return NativeLinear(kernel)


def _max_pool2d(kernel):
    from ember.llvm.kernel_pool import NativeMaxPool2d
    from ember.llvm.kernel_qpool import NativeCodesMaxPool2d
    return NativeCodesMaxPool2d(NativeMaxPool2d(kernel))  # uint8 codes, then float32


def _mul_conv2d(kernel):
    from ember.llvm.kernel_conv_dense import NativeMulConv2d
    return NativeMulConv2d(kernel)


def _layer_norm(kernel):
    from ember.llvm.kernel_norm import NativeLayerNorm
    return NativeLayerNorm(kernel)


def _adaptive_avg_pool2d(kernel):
    from ember.llvm.kernel_pool import NativeAdaptiveAvgPool2d
    return NativeAdaptiveAvgPool2d(kernel)


def _softmax(kernel):
    from ember.llvm.kernel_attention import NativeSoftmax
    return NativeSoftmax(kernel)


def _mha(kernel):
    from ember.llvm.kernel_attention import NativeMHA
    return NativeMHA(kernel)


def _qlinear_dynamic(kernel):
    from ember.llvm.kernel_qlinear import NativeQLinearDynamic
    return NativeQLinearDynamic(kernel)


def _qlinear_dynamic_relu(kernel):
    from ember.llvm.kernel_qlinear import NativeQLinearDynamic
    return NativeQLinearDynamic(kernel, relu=True)


def _qlinear(kernel):
    from ember.llvm.kernel_qlinear import NativeQLinear
    return NativeQLinear(kernel)


def _qconv2d(kernel):
    from ember.llvm.kernel_qconv import NativeQConv2d
    return NativeQConv2d(kernel)


def _quantize(kernel):
    from ember.llvm.kernel_qelem import NativeQuantize
    return NativeQuantize(kernel)


def _dequantize(kernel):
    from ember.llvm.kernel_qelem import NativeDequantize
    return NativeDequantize(kernel)


def _qlstm(kernel):
    from ember.llvm.kernel_qlstm import NativeQLSTM
    return NativeQLSTM(kernel)


NATIVE = {
    "tensor.quantized_lstm_dynamic": _qlstm,
    "tensor.quantize_per_tensor": _quantize,
    "tensor.dequantize_codes": _dequantize,
    "tensor.quantized_conv2d": _qconv2d,
    "tensor.quantized_linear_dynamic": _qlinear_dynamic,
    "tensor.quantized_linear_dynamic_relu": _qlinear_dynamic_relu,
    "tensor.quantized_linear": _qlinear,
    "tensor.adaptive_avg_pool2d": _adaptive_avg_pool2d,
    "tensor.multi_head_attention": _mha,
    "tensor.softmax": _softmax,
    "tensor.layer_norm": _layer_norm,
    "tensor.mul_conv2d": _mul_conv2d,
    "tensor.max_pool2d": _max_pool2d,
    "tensor.lstm": _lstm,
    "tensor.conv2d": _conv2d,
    "tensor.linear": _linear,
}
"""Operator name -> factory(numpy kernel) -> native twin."""
NOTED = {"tensor.zeros": NotedZeros}
"""Operators whose kernel runs as is, its result noted for plans (llvm/graph.py)."""
for _name in ("tensor.relu", "tensor.relu6", "tensor.hardswish", "tensor.hardsigmoid",
              "tensor.silu", "tensor.sigmoid", "tensor.tanh"):
    NATIVE[_name] = _unary(_name)
for _name in ("tensor.add", "tensor.sub", "tensor.mul"):
    NATIVE[_name] = _binary(_name)
