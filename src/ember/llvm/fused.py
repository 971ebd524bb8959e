"""Fused groups natively: a `tensor.fused` group (mobile/fused.py's spec) as one LLVM loop.

With `backend="llvm"` the VM still runs the program, but each fused group is a
`NativeFusedGroup`: a call whose tensors are float32, C-contiguous and all of one shape
(scalars are Python numbers, weak as in numpy and torch: cast to float32) runs one
vectorized loop over the elements, compiled once per group and input kinds, with the GIL
released; any other call runs the planned numpy sequence (mobile/fused.py), so results
never depend on what the native tier covers.

Arithmetic is float32, operation by operation in the group's order, with no fast-math and
no contraction into FMAs: bit-identical to numpy's float32 ufuncs. exp, tanh and sigmoid
are ember's own (llvm/vmath.py, each within its measured ulp bound of the correctly
rounded float32 value); the VM's numpy kernels have their own errors (sigmoid there is
0.5 * tanh(x / 2) + 0.5), so native and VM results of these steps differ within those
bounds — the documented bound the differential tests use.
"""

from __future__ import annotations

import ctypes
import math
import sys
import threading
import weakref

import numpy as np
from llvmlite import ir

from ember.llvm import kernels, objcall, vmath
from ember.llvm.layout import I64, PTR
from ember.llvm.vmath import F32, F64, exp_f32, sigmoid_f32, tanh_f32
from ember.mobile.fused import _FREE_REFS, FusedGroup
_CONTEXT = objcall.CONTEXT
_REC = kernels.RECORDING
_KERNEL = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.c_int64)
_LOCK = threading.Lock()


# ----------------------------------------------------------------------------- steps

def _const(x, v: float):
    """The float32 constant v in x's type (a float, or a vector of them)."""
    v = float(np.float32(v))
    t = x.type
    return ir.Constant(t, [v] * t.count) if isinstance(t, ir.VectorType) else ir.Constant(t, v)


def _relu(b, x):
    """np.clip(x, 0, inf): NaN stays NaN, -0.0 becomes 0.0."""
    zero = _const(x, 0.0)
    pos = b.select(b.fcmp_ordered(">", x, zero), x, zero)
    return b.select(b.fcmp_unordered("uno", x, x), x, pos)


def _clip(b, x, lo: float, hi: float):
    """np.clip(x, lo, hi) of a float32: NaN stays NaN; max(x, lo) then min(·, hi)."""
    lo_c, hi_c = _const(x, lo), _const(x, hi)
    m = b.select(b.fcmp_ordered(">", x, lo_c), x, lo_c)
    m = b.select(b.fcmp_ordered("<", m, hi_c), m, hi_c)
    return b.select(b.fcmp_unordered("uno", x, x), x, m)


def _f32(v: float):
    return ir.Constant(F32, float(np.float32(v)))


def _hardswish(b, x):
    t = _clip(b, b.fadd(x, _const(x, 3.0)), 0.0, 6.0)
    return b.fmul(x, b.fmul(t, _const(x, 1.0 / 6.0)))


def _hardsigmoid(b, x):
    return _clip(b, b.fadd(b.fmul(x, _const(x, 1.0 / 6.0)), _const(x, 0.5)), 0.0, 1.0)


EPILOGUE_ACTS = {"relu": _relu, "hardswish": _hardswish, "hardsigmoid": _hardsigmoid}
"""Activations a product's (or a depthwise convolution's) epilogue computes: the same
float32 operations as the numpy kernels (bit-identical), on scalars or vectors."""


def epilogue(b, x, act):
    """act(x) (act None: x) for a float32 scalar or vector."""
    return x if act is None else EPILOGUE_ACTS[act](b, x)


def epilogue_source() -> str:
    """The text of the epilogue's emitters (part of the cache key of the kernels that
    use them)."""
    import inspect

    return "".join(inspect.getsource(f) for f in (_const, _relu, _clip, _hardswish,
                                                   _hardsigmoid, epilogue))


def _gelu_tanh(b, x):
    inner = b.fmul(b.fmul(x, x), _f32(0.044715))
    inner = b.fmul(b.fmul(b.fadd(inner, _f32(1.0)), x), _f32(math.sqrt(2.0 / math.pi)))
    t = b.fadd(tanh_f32(b, inner), _f32(1.0))
    return b.fmul(b.fmul(t, x), _f32(0.5))


def _sigmoid(b, x):
    return sigmoid_f32(b, x)


STEPS = {
    "tensor.add": ("tt", lambda b, x, y: b.fadd(x, y)),
    "tensor.sub": ("tt", lambda b, x, y: b.fsub(x, y)),
    "tensor.mul": ("tt", lambda b, x, y: b.fmul(x, y)),
    "tensor.truediv": ("tt", lambda b, x, y: b.fdiv(x, y)),
    "tensor.add_scalar": ("ts", lambda b, x, s: b.fadd(x, s)),
    "tensor.sub_scalar": ("ts", lambda b, x, s: b.fsub(x, s)),
    "tensor.mul_scalar": ("ts", lambda b, x, s: b.fmul(x, s)),
    "tensor.truediv_scalar": ("ts", lambda b, x, s: b.fdiv(x, s)),
    "tensor.radd_scalar": ("ts", lambda b, x, s: b.fadd(s, x)),
    "tensor.rsub_scalar": ("ts", lambda b, x, s: b.fsub(s, x)),
    "tensor.rmul_scalar": ("ts", lambda b, x, s: b.fmul(s, x)),
    "tensor.rtruediv_scalar": ("ts", lambda b, x, s: b.fdiv(s, x)),
    "tensor.neg": ("t", lambda b, x: b.fneg(x)),
    "tensor.relu": ("tf", lambda b, x: _relu(b, x)),
    "tensor.sigmoid": ("t", _sigmoid),
    "tensor.tanh": ("t", tanh_f32),
    "tensor.exp": ("t", exp_f32),
    "tensor.hardswish": ("tf", _hardswish),
    "tensor.hardsigmoid": ("tf", _hardsigmoid),
    "tensor.relu6": ("tf", lambda b, x: _clip(b, x, 0.0, 6.0)),
    "tensor.silu": ("tf", lambda b, x: b.fmul(x, _sigmoid(b, x))),
}
"""Operator → (operand kinds: t float32 element, s scalar as float32, f a False flag;
emitter of the per-element float32 value)."""


def plan_native(spec, arg_kinds) -> bool:
    """Whether the group runs natively for inputs of these kinds ("t" / "s")."""
    _, n_in, consts, steps, outputs = spec
    kinds = list(arg_kinds) + ["c"] * len(consts)
    for name, refs in steps:
        entry = STEPS.get(name)
        if entry is None or len(entry[0]) != len(refs):
            return False
        for want, ref in zip(entry[0], refs):
            k = kinds[ref]
            if want == "t" and k != "t":
                return False
            if want == "s" and k not in ("s", "c"):
                return False
            if want == "s" and k == "c" and not _scalar_const(consts[ref - n_in]):
                return False
            if want == "f" and not (k == "c" and consts[ref - n_in] is False):
                return False
        kinds.append("t")
    n0 = n_in + len(consts)
    return all(o >= n0 for o in outputs)


def _scalar_const(c) -> bool:
    return type(c) is float or (type(c) is int and abs(c) <= 1 << 24)


def build_kernel(module: ir.Module, name: str, spec, arg_kinds) -> None:
    """`void name(ptr tensors, ptr scalars, ptr outs, i64 n)`: tensors and scalars are
    arrays indexed by input number (float* / double), outs one float* per output."""
    _, n_in, consts, steps, outputs = spec
    fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR, PTR, PTR, I64]), name)
    tens, scal, outs, n = fn.args
    entry, head, body, done = (fn.append_basic_block(s) for s in ("e", "h", "b", "d"))
    b = ir.IRBuilder(entry)
    bases, scalars = {}, {}
    for i, k in enumerate(arg_kinds):
        if k == "t":
            bases[i] = b.load(b.gep(tens, [I64(i)], source_etype=PTR), typ=PTR)
        else:
            d = b.load(b.gep(scal, [I64(i)], source_etype=F64), typ=F64)
            scalars[i] = b.fptrunc(d, F32)
    out_ptrs = [b.load(b.gep(outs, [I64(k)], source_etype=PTR), typ=PTR)
                for k in range(len(outputs))]
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(I64)
    i.add_incoming(I64(0), entry)
    b.cbranch(b.icmp_signed("<", i, n), body, done)
    b.position_at_end(body)
    vals = []
    for k in range(n_in):
        vals.append(b.load(b.gep(bases[k], [i], source_etype=F32), typ=F32)
                    if k in bases else scalars[k])
    for c in consts:
        vals.append(ir.Constant(F32, float(c)) if _scalar_const(c) else None)
    for op_name, refs in steps:
        kinds, emit = STEPS[op_name]
        operands = [vals[r] for r, kd in zip(refs, kinds) if kd != "f"]
        vals.append(emit(b, *operands))
    for k, o in enumerate(outputs):
        b.store(vals[o], b.gep(out_ptrs[k], [i], source_etype=F32))
    nxt = b.add(i, I64(1))
    i.add_incoming(nxt, b.block)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()


_ND = np.ndarray
_F32 = np.dtype(np.float32)
_empty = np.empty
_getrefcount = sys.getrefcount
_weakcount = weakref.getweakrefcount
REUSE = 1 << 16
"""Outputs of at least this many elements are recycled once the caller drops them."""


class NativeFusedGroup(FusedGroup):
    """A fused group that runs one native loop when its inputs allow (see the module).

    A call whose argument types were seen before checks its tensors (float32, the first
    one's shape, C-contiguous strides) and passes the argument tuple itself to the
    kernel's object entry: no ctypes arrays, no `.ctypes` objects (about 1 us in all)."""

    def __init__(self, spec):
        super().__init__(spec)
        self.spec = spec
        self._producer = _producer_plan(self) if any(
            name in _PRODUCERS for name, _ in self.specs) else None
        """For a group a producer starts (passes/fuse_epilogue.py): (its native twins,
        the epilogue fast path or None); such a group never runs the planned sequence."""
        self._native: dict = {}
        self._fast = None
        """(index of the first tensor, object entry) once a call ran natively."""
        self._ptrs = ctypes.c_void_p * self.n_in
        self._dbls = ctypes.c_double * self.n_in
        self._outs = ctypes.c_void_p * len(self.outputs)
        self._nout = len(self.outputs)

    def __call__(self, *args):
        if self._producer is not None:
            return self._run_producer(args)
        fast = self._fast
        if fast is not None:
            a0 = args[fast[0]]
            if type(a0) is _ND:
                if self._nout == 1:
                    out = _empty(a0.shape, _F32) if a0.size < REUSE else \
                        self._recycled(a0.shape)
                    if fast[1](id(args), id(out), _CONTEXT):
                        if _REC[0] is not None:
                            self._note(args, (out,))
                        return out
                else:
                    outs = tuple([_empty(a0.shape, _F32) for _ in range(self._nout)])
                    if fast[1](id(args), id(outs), _CONTEXT):
                        if _REC[0] is not None:
                            self._note(args, outs)
                        return outs
        kinds = _kinds(args)
        if kinds is not None:
            fn = self._kernel(kinds)
            if fn is not None:
                if self._fast is None and fn[1] is not None:
                    self._fast = (kinds.index("t"), fn[1])
                return self._run_native(fn[0], args, kinds)
        return super().__call__(*args)

    def _run_producer(self, args):
        """The producer with its activation in the product's epilogue where the native
        kernel covers the call; else the steps one by one through their native twins."""
        twins, epilogue = self._producer
        if epilogue is not None:
            name, refs, act, flag, fn, count, act_op = epilogue
            vals = args + self.consts
            a = [vals[i] for i in refs]
            y = fn(*a, act=act)
            if y is not None:
                count(name, "native")
                count(act_op, "native")
                return y
            return twins[1](twins[0](*a), flag)
        vals = list(args)
        vals.extend(self.consts)
        for twin, (_, refs) in zip(twins, self.specs):
            vals.append(twin(*[vals[i] for i in refs]))
        return vals[self.outputs[0]] if self.single else \
            tuple(vals[i] for i in self.outputs)

    def explain(self, args):
        """("native", None) if a call with these arguments runs natively, else ("numpy",
        why) (for native_report; a producer group's twins say for themselves)."""
        if self._producer is not None:
            return ("native", None)
        kinds = _kinds(args)
        if kinds is None:
            return ("numpy", "inputs not all float32 C-contiguous tensors of one shape "
                    "and Python scalars: " + _describe(args))
        if not plan_native(self.spec, kinds):
            missing = sorted({n for n, _ in self.specs if n not in STEPS})
            return ("numpy", "steps without a native emitter: " + ", ".join(missing)
                    if missing else "operand kinds the native loop does not take: " +
                    _describe(args))
        return ("native", None)

    def _recycled(self, shape):
        """The previous call's output if the caller has let go of it (this thread's slot
        is its only reference, as mobile/fused.py checks), else a fresh array: writing
        64 MiB again costs a fraction of faulting in 64 MiB of new pages."""
        held = self._local.__dict__.get("native_out")
        if held is None:
            held = self._local.native_out = [None]
        o = held[0]
        if o is None or _getrefcount(o) != _FREE_REFS or _weakcount(o) or o.shape != shape:
            o = held[0] = _empty(shape, _F32)
        return o

    def _kernel(self, kinds):
        fn = self._native.get(kinds, False)
        if fn is False:
            with _LOCK:
                fn = self._native.get(kinds, False)
                if fn is False:
                    fn = self._native[kinds] = _compile(self.spec, kinds, with_entry=True) \
                        if plan_native(self.spec, kinds) else None
        return fn

    def _run_native(self, fn, args, kinds):
        first = args[kinds.index("t")]
        outs = [np.empty(first.shape, np.float32) for _ in self.outputs]
        tens = self._ptrs(*[a.ctypes.data if k == "t" else 0 for a, k in zip(args, kinds)])
        scal = self._dbls(*[a if k == "s" else 0.0 for a, k in zip(args, kinds)])
        optr = self._outs(*[o.ctypes.data for o in outs])
        fn(ctypes.addressof(tens), ctypes.addressof(scal), ctypes.addressof(optr), first.size)
        if _REC[0] is not None:
            self._note(args, outs)
        return outs[0] if self.single else tuple(outs)

    def _note(self, args, outs):
        """kernels.note for a native run: the pointer form of the kernel, its arrays of
        tensor pointers, scalars and outputs as tuples (graph.py makes them arrays)."""
        kinds = _kinds(args)
        fn = self._kernel(kinds)[0]
        tens = tuple(a.ctypes.data if k == "t" else 0 for a, k in zip(args, kinds))
        scal = tuple(float(a) if k == "s" else 0.0 for a, k in zip(args, kinds))
        kernels.note(fn, (tens, scal, tuple(o.ctypes.data for o in outs), outs[0].size),
                     [a for a, k in zip(args, kinds) if k == "t"], outs)


_PRODUCERS = ("tensor.conv2d", "tensor.linear")


def _conv2d_act():
    from ember.llvm.kernel_conv import conv2d_act
    return conv2d_act


def _linear_act():
    from ember.llvm.kernel_linear import linear_act
    return linear_act


_EPILOGUE = {"tensor.conv2d": _conv2d_act, "tensor.linear": _linear_act}
"""Producer -> () -> f(*its operands, act=activation): the result with the activation in
the native product's epilogue, or None where the native kernel does not cover the call
(resolved once per group, when it is planned)."""


def _producer_plan(group):
    """(native twin per step, (producer, its operand refs, activation) when the group is
    exactly a producer and an epilogue activation (EPILOGUE_ACTS) of it, else None)."""
    from ember.llvm.kernels import native_kernel

    twins = tuple(native_kernel(name, k) for (name, _), k in zip(group.specs, group.kernels))
    n0 = group.n_in + len(group.consts)
    epilogue = None
    if len(group.specs) == 2 and group.outputs == (n0 + 1,):
        (p, prefs), (a, arefs) = group.specs
        act = a.removeprefix("tensor.")
        if p in _EPILOGUE and act in EPILOGUE_ACTS and len(arefs) == 2 and \
                arefs[0] == n0 and group.n_in <= arefs[1] < n0 and \
                group.consts[arefs[1] - group.n_in] is False:
            from ember.llvm.kernels import count
            epilogue = (p, tuple(prefs), act, False, _EPILOGUE[p](), count, a)
    return twins, epilogue


def _describe(args) -> str:
    from ember.llvm.report import describe_args
    return describe_args(args)


def _kinds(args):
    """("t" | "s", …) when every tensor is float32, C-contiguous and of one shape and every
    other argument a Python float or small int; else None."""
    shape, out = None, []
    for a in args:
        if type(a) is np.ndarray:
            if a.dtype != np.float32 or not a.flags.c_contiguous or \
                    (shape is not None and a.shape != shape):
                return None
            shape = a.shape
            out.append("t")
        elif type(a) is float or (type(a) is int and abs(a) <= 1 << 24):
            out.append("s")
        else:
            return None
    return tuple(out) if shape is not None else None


def _compile(spec, kinds, with_entry=False):
    """The kernel as a ctypes function (with_entry: paired with its object entry,
    objcall.py, or None where objcall.LAYOUT does not hold)."""
    from ember.llvm import cache, jit

    layout = objcall.LAYOUT if with_entry else None
    key = cache.key("fused", repr(spec), kinds, jit.target_key(), _source_digest(),
                    sorted(layout.items()) if layout else None)
    name = f"ember_fused_{key[:16]}"
    hit = cache.load(key)
    if hit is not None:
        obj = hit[1]
    else:
        m = ir.Module(name=name)
        m.triple, m.data_layout = jit.target_triple_layout()
        build_kernel(m, name, spec, kinds)
        if layout is not None:
            objcall.build_entry(m, name, kinds, len(spec[4]), layout)
        obj = jit.compile_ir(str(m))
        cache.store(key, {"kind": "fused"}, obj)
    loaded = jit.Loaded(obj)
    fn = _KERNEL(loaded.address(name))
    fn._loaded = loaded  # keep the engine (and its code) alive with the function
    if not with_entry:
        return fn
    entry = None
    if layout is not None:
        entry = objcall.ENTRY(loaded.address(name + "_o"))
        entry._loaded = loaded
    return fn, entry


def _source_digest() -> str:
    import hashlib
    h = hashlib.sha256()
    for path in (__file__, objcall.__file__, vmath.__file__):
        with open(path, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()[:16]
