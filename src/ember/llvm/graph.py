"""Whole-function native plans: a function whose tensor work is all native kernels runs as
one native call.

Under `backend="llvm"` a tensor function's body runs on the VM, which calls each native
kernel through its Python twin: about a microsecond of dispatch per op, as much as the
kernels themselves on a small model (the bench MLP at batch 1: 11 us of products, 7 us of
dispatch). `planned(module, name, vm_entry)` wraps the VM entry of a function that
takes one tensor and returns one tensor, if its IR passes the static check (`refusal`):
every op is a tensor op with a native twin, a view or metadata read, a fused group, or
pure scalar work (ints, bools, strings, tuples, fresh lists, raising), and its callees
pass too. So the only tensor-to-scalar steps read shapes and dtypes, and for one input
shape, dtype and layout the body takes the same path and makes the same kernel calls.

The first call with a float32, C-contiguous input of a new shape runs on the VM with a
recorder set (kernels.RECORDING): each twin notes its native calls (kernels.note: the
function, its arguments, the arrays it reads and writes). The plan holds if every array a
call reads is the input, a frozen constant (weights), a kernel-derived constant the twin
vouches for, or an array an earlier noted call wrote (or a view of one), and the result
is an array a noted call wrote: then the notes are the whole computation. Anything else
(a numpy kernel, a view of the input, a scratch array nobody declared) leaves that shape
on the VM path. A plan is then one LLVM function calling every kernel in order with its
recorded arguments, the input's and output's addresses substituted; the intermediates
the recording allocated stay the plan's own buffers (an arena), reused by every call.
Later calls with that shape allocate a fresh output and make one ctypes call (the GIL
released); results are the VM path's, bit for bit (the same kernels on the same data).
A call that finds the plan busy in another thread runs the VM path.

A kernel may decline a call (its ctypes restype is c_int32 and it returns nonzero
without writing: the dynamic int8 product on a NaN or infinite input, whose bits the
numpy kernel's general path decides). The plan checks such a call's result and, on
nonzero, stops and runs the VM path from the start: no noted call writes the input, so
that rerun sees the call's arguments unchanged and takes its twin's own path. A
recording during which a twin declined (`kernels.decline`) decides nothing for its
shape, which records again on a later call (at most RETRIES times).
"""

from __future__ import annotations

import ctypes
import threading

import numpy as np

from ember.llvm import kernels

_ND = np.ndarray
_F32 = np.dtype(np.float32)
_empty = np.empty
MAX_PLANS = 8
"""Input shapes planned per function (later shapes run the VM path)."""
RETRIES = 4
"""Recordings of one shape during which a kernel declined, before the shape stays on the
VM path."""

_SCALAR_OPS = frozenset({
    "const", "widen", "narrow", "return", "yield", "if", "while", "condition", "raise",
    "exc.new", "obj.get", "obj.is", "obj.isnot", "list.new", "list.len", "list.getitem",
    "builtins.format", "call", "tensor.fused"})
_SCALAR_FAMILIES = ("int.", "float.", "bool.", "str.", "tuple.")
_LOCAL_LIST_OPS = frozenset({"list.append"})
"""List mutations allowed on a list the same function made (list.new)."""
_NOT_VIEWS = frozenset({"tensor.item"})
"""report.VIEWS members that read an element into a scalar (control flow could follow)."""


# ----------------------------------------------------------------------------- static check

def refusal(module, name: str) -> str | None:
    """Why function `name` cannot be planned (None: it can)."""
    from ember.ir import types as T

    func = module.funcs.get(name)
    if func is None:
        return "no such function"
    ft = func.attrs["type"]
    defaults = func.attrs.get("defaults") or []
    if not ft.params or not isinstance(ft.params[0], T.TensorType) or \
            len(defaults) != len(ft.params) - 1 or not isinstance(ft.ret, T.TensorType):
        return "not one tensor in (the other parameters defaulted), one tensor out"
    seen: set = set()
    why = _check_func(module, name, seen)
    if why is None and _reads_state(module, seen) and _mutates_state(module):
        return "it reads module state another method changes"
    return why


_MUTATORS = frozenset({"obj.set"} | {f"list.{n}" for n in (
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
    "__setitem__", "__delitem__", "setitem")} | {f"dict.{n}" for n in (
        "__setitem__", "__delitem__", "clear", "pop", "popitem", "setdefault", "update",
        "setitem")})


def _walk(ops):
    for op in ops:
        yield op
        for r in op.regions:
            yield from _walk(r.block.ops)


def _reads_state(module, names) -> bool:
    return any(op.name == "obj.get" for n in names for op in _walk(module.funcs[n].body.ops))


def _mutates_state(module) -> bool:
    """Some function of the module changes an object or a container it did not make."""
    for f in module.funcs.values():
        for op in _walk(f.body.ops):
            if op.name in _MUTATORS:
                src = getattr(op.operands[0], "op", None) if op.operands else None
                if op.name == "obj.set" or src is None or \
                        src.name not in ("list.new", "dict.new"):
                    return True
    return False


def _check_func(module, name, seen) -> str | None:
    if name in seen:
        return None if len(seen) < 64 else "too many callees"
    seen.add(name)
    func = module.funcs.get(name)
    if func is None:
        return f"callee {name} not in the module"
    return _check_ops(module, func.body.ops, seen)


def _check_ops(module, ops, seen) -> str | None:
    for op in ops:
        why = _check_op(module, op, seen)
        if why is not None:
            return why
        if op.name != "tensor.fused":
            for r in op.regions:
                why = _check_ops(module, r.block.ops, seen)
                if why is not None:
                    return why
    return None


def _check_op(module, op, seen) -> str | None:
    from ember.llvm.report import VIEWS

    name = op.name
    if name == "call":
        return _check_func(module, op.callee, seen)
    if name in _SCALAR_OPS or name.startswith(_SCALAR_FAMILIES):
        return None
    if name in _LOCAL_LIST_OPS:
        src = getattr(op.operands[0], "op", None)
        return None if src is not None and src.name == "list.new" else \
            f"{name} on a list the function did not make"
    if name in _INPLACE_FLAG and not _const_false(op.operands[-1]):
        return f"{name} may run in place"
    if name in kernels.NATIVE or (name in VIEWS and name not in _NOT_VIEWS):
        return None
    return f"{name} has no native twin"


_INPLACE_FLAG = frozenset("tensor." + n for n in (
    "relu", "relu6", "hardswish", "hardsigmoid", "silu", "elu", "leaky_relu", "hardtanh",
    "selu", "celu", "rrelu", "threshold", "mish"))
"""Activations whose last operand is `inplace`: only a constant False is planned (an
in-place call runs the numpy kernel on its operand, which a plan would not replay)."""


def _const_false(v) -> bool:
    op = getattr(v, "op", None)
    return op is not None and op.name == "const" and op.attrs.get("value", None) is False


# ----------------------------------------------------------------------------- recording

class Recorder:
    """The native calls of one VM call (kernels.note appends them), in this thread."""

    def __init__(self):
        self.thread = threading.get_ident()
        self.calls: list = []
        self.declined = False
        """A twin ran its numpy kernel for a call its native kernel declined
        (kernels.decline)."""

    def decline(self):
        if threading.get_ident() == self.thread:
            self.declined = True

    def note(self, fn, args, reads, writes, consts, temps):
        if threading.get_ident() == self.thread:
            self.calls.append((fn, tuple(args), tuple(reads), tuple(writes), tuple(consts),
                               tuple(temps)))


class _Roles:
    """What each array of a recording is to the plan: the input, the result, an arena
    buffer (written by a call or declared scratch) or a constant."""

    def __init__(self, x, result):
        self.x, self.result = x, result
        self.written: dict = {}
        self.keep: dict = {}
        self.aliases: dict = {}
        """Views of the input that start where it starts (a kernel reads only an array's
        data pointer, its shape comes in integer arguments): replayed as the input."""

    def aliases_x(self, a) -> bool:
        x = self.x
        return (a.base is x or (x.base is not None and a.base is x.base)) and \
            a.ctypes.data == x.ctypes.data and a.nbytes <= x.nbytes

    def vouch(self, a, consts) -> str | None:
        """None if the plan can rely on a's contents when a call reads it."""
        from ember.ops.tensor_common import frozen

        if a is self.x or id(a) in self.written:
            return None
        if self.aliases_x(a):
            self.aliases[id(a)] = a
            return None
        base = a.base
        if isinstance(base, _ND) and id(base) in self.written and base is not self.x:
            self.keep[id(a)] = a
            return None
        if any(a is c for c in consts) or frozen(a):
            self.keep[id(a)] = a
            return None
        return "a call reads an array no noted call wrote (numpy work or a view of the input)"

    def wrote(self, a) -> str | None:
        if a is self.x or (isinstance(a.base, _ND) and a.base is self.x):
            return "a call writes its input"
        self.written[id(a)] = a
        if a is not self.result:
            self.keep[id(a)] = a
        return None


def check(calls, x, result):
    """(why the recorded calls are not the whole computation of `result`, or None; the
    views of x they read that alias it)."""
    roles = _Roles(x, result)
    return _check(calls, x, result, roles), list(roles.aliases.values())


def _check(calls, x, result, roles) -> str | None:
    if not calls:
        return "no native call was noted"
    if type(result) is not _ND or result.dtype is not _F32 or not result.flags.c_contiguous \
            or result.base is not None:
        return "the result is not a fresh float32 array"
    for fn, args, reads, writes, consts, temps in calls:
        for a in temps:
            roles.keep[id(a)] = a
            roles.written[id(a)] = a
        for a in reads:
            why = roles.vouch(a, consts)
            if why is not None:
                return why
        for a in writes:
            why = roles.wrote(a)
            if why is not None:
                return why
    if id(result) not in roles.written:
        return "no noted call wrote the result"
    return _pointer_problem(calls, x, result)


def _pointer_problem(calls, x, result) -> str | None:
    """Why a pointer argument cannot be replayed: it must be null, an array's address or a
    pointer into a noted array (the plan keeps them), the input's or the result's own
    address or data (substituted per call), never inside them."""
    arrays = [a for call in calls for group in call[2:] for a in group]
    x_views = [a for a in arrays if a is not x and a.ctypes.data == x.ctypes.data]
    ids = {id(a) for a in arrays}
    spans = [(a.ctypes.data, a.ctypes.data + a.nbytes) for a in arrays
             if a is not x and a is not result and all(a is not v for v in x_views)]
    moving = [(a.ctypes.data, a.ctypes.data + a.nbytes) for a in (x, result)]
    for fn, args, *_ in calls:
        for t, v in zip(fn.argtypes, args):
            ptrs = v if isinstance(v, tuple) else (v,) if t is ctypes.c_void_p else ()
            for p in ptrs:
                if type(p) is float or not p or p in ids or any(p == lo for lo, _ in moving):
                    continue
                if any(lo < p < hi for lo, hi in moving):
                    return "a call points inside the input or the result"
                if not any(lo <= p < hi for lo, hi in spans):
                    return "a call passes a pointer to memory no noted array holds"
    return None


# ----------------------------------------------------------------------------- the plan

class Plan:
    """One input shape's compiled call sequence (see the module)."""

    def __init__(self, calls, x, result, aliases):
        from ember.llvm import objcall

        self.out_shape = result.shape
        self.keep = [a for call in calls for group in call[2:] for a in group
                     if a is not x and a is not result and all(a is not v for v in aliases)]
        self.lock = threading.Lock()
        self.fn, self._loaded = _compile(calls, x, result, aliases, objcall.LAYOUT["data"])

    def run(self, x):
        """The result, or None when the plan is busy or a kernel declined (the caller
        runs the VM path)."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            out = _empty(self.out_shape, _F32)
            return None if self.fn(id(x), id(out)) else out
        finally:
            self.lock.release()


_DRIVER = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)


def _compile(calls, x, result, aliases, data_off):
    """The driver `int plan(x object, out object)` (0, or 1 when a kernel declined) as a
    ctypes function (and what keeps its code alive)."""
    from llvmlite import ir

    from ember.llvm import jit
    from ember.llvm.layout import I64, PTR

    m = ir.Module(name="ember_plan")
    m.triple, m.data_layout = jit.target_triple_layout()
    fn = ir.Function(m, ir.FunctionType(ir.IntType(32), [I64, I64]), "ember_plan")
    b = ir.IRBuilder(fn.append_basic_block("e"))
    xobj, oobj = fn.args

    def data(obj):
        p = b.inttoptr(b.add(obj, I64(data_off)), PTR)
        return b.ptrtoint(b.load(p, typ=PTR), I64)

    dyn = {id(x): xobj, x.ctypes.data: data(xobj),
           id(result): oobj, result.ctypes.data: data(oobj)}
    for a in aliases:
        dyn[id(a)] = xobj
    for call in calls:
        _emit_call(fn, b, call[0], call[1], dyn)
    b.ret(ir.IntType(32)(0))
    loaded = jit.Loaded(jit.compile_ir(str(m)))
    return _DRIVER(loaded.address("ember_plan")), loaded


_CTYPES = {ctypes.c_void_p: "p", ctypes.c_int64: "i", ctypes.c_float: "f",
           ctypes.c_double: "d"}


def _emit_call(driver, b, fn, args, dyn):
    """The call of fn with its recorded arguments; a kernel that can decline (restype
    c_int32) is followed by `return 1` from the driver when it did."""
    from llvmlite import ir

    from ember.llvm.layout import I64, PTR

    kinds = [_CTYPES[t] for t in fn.argtypes]
    types = {"p": PTR, "i": I64, "f": ir.FloatType(), "d": ir.DoubleType()}
    checked = fn.restype is ctypes.c_int32
    i32 = ir.IntType(32)
    fty = ir.FunctionType(i32 if checked else ir.VoidType(), [types[k] for k in kinds])
    vals = []
    for k, v in zip(kinds, args):
        if isinstance(v, tuple):
            vals.append(_buffer(b, v, dyn))
            continue
        if k in "fd":
            vals.append(ir.Constant(types[k], float(v)))
            continue
        v = 0 if v is None else int(v)
        iv = dyn.get(v, I64(v)) if v else I64(0)
        vals.append(b.inttoptr(iv, PTR) if k == "p" else iv)
    # a pointer typed with its function type: what llvmlite's call reads off a callee
    r = b.call(b.inttoptr(I64(ctypes.cast(fn, ctypes.c_void_p).value), fty.as_pointer()),
               vals)
    if checked:
        stop, go = driver.append_basic_block("declined"), driver.append_basic_block("go")
        b.cbranch(b.icmp_unsigned("!=", r, i32(0)), stop, go)
        b.position_at_end(stop)
        b.ret(i32(1))
        b.position_at_end(go)


def _buffer(b, values, dyn):
    """A stack array of `values` (doubles if any is a float, else i64 with the input's and
    output's addresses substituted): a kernel parameter that points to an array."""
    from llvmlite import ir

    from ember.llvm.layout import I64

    if any(type(v) is float for v in values):
        t = ir.DoubleType()
        vals = [ir.Constant(t, float(v)) for v in values]
    else:
        t = I64
        vals = [dyn.get(int(v), I64(int(v))) if v else I64(0) for v in values]
    buf = b.alloca(ir.ArrayType(t, len(values)))
    for i, v in enumerate(vals):
        b.store(v, b.gep(buf, [I64(0), I64(i)]))
    return buf


# ----------------------------------------------------------------------------- the wrapper

class PlannedEntry:
    """A VM entry that runs planned shapes natively (see the module)."""

    def __init__(self, vm_entry):
        self.vm = vm_entry
        self.plans: dict = {}
        """shape -> Plan, or the reason that shape runs the VM path."""
        self.retries: dict = {}
        """shape -> recordings during which a kernel declined."""

    def __getattr__(self, name):
        return getattr(self.vm, name)

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs:
            x = args[0]
            if type(x) is _ND and x.dtype is _F32 and x.flags.c_contiguous and \
                    x.flags.aligned:
                plan = self.plans.get(x.shape)
                if type(plan) is Plan:
                    y = plan.run(x)
                    if y is not None:
                        return y
                elif plan is None and len(self.plans) < MAX_PLANS:
                    return self._record(x)
        return self.vm(*args, **kwargs)

    def _record(self, x):
        """Run the VM path recording (one recording at a time in the process: a call that
        finds another recording runs the VM path plainly) and plan x's shape."""
        if not _RECORD_LOCK.acquire(blocking=False):
            return self.vm(x)
        try:
            if x.shape in self.plans:
                return self.vm(x)
            rec = kernels.RECORDING[0] = Recorder()
            try:
                result = self.vm(x)
            finally:
                kernels.RECORDING[0] = None
            if rec.declined:
                tries = self.retries[x.shape] = self.retries.get(x.shape, 0) + 1
                if tries < RETRIES:
                    return result
                self.plans[x.shape] = "a kernel declined the calls of every recording"
                return result
            why, aliases = check(rec.calls, x, result)
            self.plans[x.shape] = why if why is not None else \
                _plan_or_reason(rec.calls, x, result, aliases)
            return result
        finally:
            _RECORD_LOCK.release()


_RECORD_LOCK = threading.Lock()


def _plan_or_reason(calls, x, result, aliases):
    """The Plan, or why it could not be built (the call's result stands: the VM path's)."""
    try:
        return Plan(calls, x, result, aliases)
    except (RuntimeError, ValueError, TypeError, KeyError, OSError) as e:
        return f"the plan did not compile: {type(e).__name__}: {e}"


def planned(module, name: str, vm_entry):
    """vm_entry wrapped by PlannedEntry if function `name` passes the static check and
    native plans can run here (objcall's layout holds), else vm_entry itself."""
    from ember.llvm import objcall

    if objcall.LAYOUT is None or refusal(module, name) is not None:
        return vm_entry
    return PlannedEntry(vm_entry)
