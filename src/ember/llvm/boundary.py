"""The native call boundary: Python values in, native call (GIL released), Python values out.

Arguments are checked exactly as the VM checks them (the VM's LoadedFunction does it),
then converted: scalars by value, lists copied into native lists (one per distinct Python
list, so aliasing is kept). The call runs through ctypes, which releases the GIL: native
code touches no Python object, so threads run in parallel. Afterwards every argument list
gets its native contents back (a script may mutate its arguments, and the VM mutates the
caller's list), a returned argument list is the caller's own object, and the native
references are released.

An error status becomes the exception the VM raises (sites.py), with the same script
traceback note.
"""

from __future__ import annotations

import ctypes
import functools
import linecache
import threading

import numpy as np

from ember.ir import types as T
from ember.llvm.memory import ctype, elem_size
from ember.llvm.sites import TIERUP, Context, decode_payload

_LIBC = ctypes.CDLL(None)
_MALLOC = _LIBC.malloc
_MALLOC.restype = ctypes.c_void_p
_MALLOC.argtypes = [ctypes.c_size_t]
_SHIM = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
_RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_NP = {T.I64: np.int64, T.F64: np.float64, T.BOOL: np.bool_}
_SCALAR = {T.I64: ctypes.c_int64, T.F64: ctypes.c_double, T.BOOL: ctypes.c_uint8,
           T.NONE: ctypes.c_uint8}


_TLS = threading.local()


def _context() -> tuple:
    """This thread's context block and its address (native code never calls back into
    Python, so one call at a time uses it; an error is read from it before the next call;
    the direct shim zeroes its frame count)."""
    got = getattr(_TLS, "ctx", None)
    if got is None:
        ctx = Context()
        got = _TLS.ctx = (ctx, ctypes.addressof(ctx))
    return got


class _Header(ctypes.Structure):
    _fields_ = [("rc", ctypes.c_int64), ("len", ctypes.c_int64), ("cap", ctypes.c_int64),
                ("data", ctypes.c_void_p)]


class Converter:
    """Python ↔ native values for one call (keeps list identity both ways)."""

    def __init__(self):
        self._made: set = set()
        self._types: dict = {}
        self.by_id: dict = {}
        """id(python list) -> (native pointer, the list)."""
        self.by_ptr: dict = {}
        self._sent: dict = {}
        """native pointer -> the array a list of scalars was converted from."""

    def to_native(self, v, t: T.Type):
        if isinstance(t, T.ListType):
            return self._list_in(v, t)
        if isinstance(t, T.TupleType):
            return ctype(t)(*[self.to_native(x, e) for x, e in zip(v, t.elems)])
        if isinstance(t, T.OptionalType):
            if v is None:
                return ctype(t)()
            return ctype(t)(1, self.to_native(v, t.elem))
        if t == T.NONE:
            return 0
        return v

    def _list_in(self, v: list, t: T.ListType) -> int:
        known = self.by_id.get(id(v))
        if known is not None:
            hdr = _Header.from_address(known[0])
            hdr.rc += 1
            return known[0]
        n = len(v)
        size = elem_size(t.elem)
        hdr_ptr = _MALLOC(ctypes.sizeof(_Header))
        data = _MALLOC(max(n, 1) * size)
        if not hdr_ptr or not data:
            raise MemoryError("cannot allocate a native list")
        hdr = _Header.from_address(hdr_ptr)
        # one count for the slot that holds it, one for the boundary (released last, so
        # the list outlives what the script does to its container)
        hdr.rc, hdr.len, hdr.cap, hdr.data = 2, n, max(n, 1), data
        self.by_id[id(v)] = (hdr_ptr, v)
        self.by_ptr[hdr_ptr] = v
        self._made.add(hdr_ptr)
        if n:
            self._fill(hdr_ptr, data, v, t.elem, n)
        return hdr_ptr

    def _fill(self, hdr_ptr, data, v, elem, n):
        np_type = _NP.get(elem)
        if np_type is not None:
            arr = np.array(v, dtype=np_type)
            ctypes.memmove(data, arr.ctypes.data, n * elem_size(elem))
            self._sent[hdr_ptr] = arr  # (write_back skips a list whose bytes are unchanged)
            return
        arr = (ctype(elem) * n).from_address(data)
        for i, x in enumerate(v):
            arr[i] = self.to_native(x, elem)

    def to_python(self, v, t: T.Type):
        if isinstance(t, T.ListType):
            return self._list_out(v, t)
        if isinstance(t, T.TupleType):
            return tuple(self.to_python(getattr(v, f"f{i}"), e) for i, e in enumerate(t.elems))
        if isinstance(t, T.OptionalType):
            return self.to_python(v.value, t.elem) if v.present else None
        if t == T.BOOL:
            return bool(v)
        if t == T.NONE:
            return None
        return v

    def _list_out(self, ptr, t: T.ListType):
        own = self.by_ptr.get(ptr)
        if own is not None:
            return own
        out = self._contents(ptr, t)
        self.by_ptr[ptr] = out
        return out

    def _contents(self, ptr, t: T.ListType) -> list:
        hdr = _Header.from_address(ptr)
        n = hdr.len
        if n == 0:
            return []
        np_type = _NP.get(t.elem)
        if np_type is not None:
            buf = (ctypes.c_char * (n * elem_size(t.elem))).from_address(hdr.data)
            return np.frombuffer(buf, dtype=np_type, count=n).tolist()
        arr = (ctype(t.elem) * n).from_address(hdr.data)
        return [self.to_python(arr[i], t.elem) for i in range(n)]

    def write_back(self, types) -> None:
        """Give each argument list its native contents (the script may have changed it;
        a list of scalars whose native bytes equal those it was given is left as it is)."""
        for ptr, v in list(self.by_ptr.items()):
            t = self._types.get(ptr)
            if t is not None and isinstance(v, list) and not self._unchanged(ptr):
                v[:] = self._contents(ptr, t)

    def _unchanged(self, ptr) -> bool:
        sent = self._sent.get(ptr)
        if sent is None:
            return False
        hdr = _Header.from_address(ptr)
        if hdr.len != len(sent):
            return False
        now = (ctypes.c_char * sent.nbytes).from_address(hdr.data)
        return memoryview(now).cast("B") == memoryview(sent).cast("B")

    def made(self):
        """(pointer, list type) of every native list this call's arguments made."""
        return [(ptr, t) for ptr, t in self._types.items() if ptr in self._made]

    def note_type(self, ptr, t) -> None:
        self._types[ptr] = t


def _record_types(conv: Converter, value, t: T.Type) -> None:
    """Remember the type of every native list an argument made (for write_back)."""
    if isinstance(t, T.ListType):
        conv.note_type(value, t)
        if isinstance(t.elem, (T.ListType, T.TupleType, T.OptionalType)):
            hdr = _Header.from_address(value)
            arr = (ctype(t.elem) * hdr.len).from_address(hdr.data)
            for i in range(hdr.len):
                _record_types(conv, arr[i], t.elem)
    elif isinstance(t, T.TupleType):
        for i, e in enumerate(t.elems):
            _record_types(conv, getattr(value, f"f{i}"), e)
    elif isinstance(t, T.OptionalType) and value.present:
        _record_types(conv, value.value, t.elem)


class NativeFunction:
    """A native entry point with the VM entry's checks, results and errors."""

    def __init__(self, vm_entry, func, shim_addr: int, release_addrs: dict, sites, sources,
                 direct_addr: int | None = None):
        self._vm = vm_entry
        """The VM entry, or a function making it (built on first need: a native call whose
        arguments check out never needs it)."""
        self._fast = None
        ft = func.attrs["type"]
        self.params, self.ret = list(ft.params), ft.ret
        self.args_type = type("Args", (ctypes.Structure,), {
            "_fields_": [(f"a{i}", ctype(t)) for i, t in enumerate(self.params)]})
        self._ret_type = ctype(self.ret)
        self._sites = sites
        self._sources = sources
        self.gate = None
        """While the code is the quick tier's: its call counter (tiers.Gate)."""
        self.again = None
        """What runs a call again natively after a tier-up poll (the entry handed out)."""
        self.repoint(shim_addr, release_addrs, direct_addr)
        self._fix_in = [i for i, t in enumerate(self.params) if t == T.NONE]
        self._out = {T.BOOL: bool, T.NONE: lambda v: None}.get(self.ret)

    def repoint(self, shim_addr: int, release_addrs: dict, direct_addr: int | None) -> None:
        """Call the code at these addresses from now on (the optimized tier's: tiers.py)."""
        self._shim = _SHIM(shim_addr)
        self._release = {t: _RELEASE(a) for t, a in release_addrs.items()}
        self._direct = None
        if direct_addr is not None:
            sig = ctypes.CFUNCTYPE(_SCALAR[self.ret], ctypes.c_void_p,
                                   *[_SCALAR[t] for t in self.params])
            self._direct = sig(direct_addr)
            """Only scalars cross: a direct call (arguments in registers, the result
            returned), no lists to convert, write back or release."""

    @property
    def vm(self):
        if not hasattr(self._vm, "_checks"):
            self._vm = self._vm()
        return self._vm

    def __call__(self, *args, **kwargs):
        vm = self.vm
        if kwargs or len(args) != len(vm._checks):
            args = vm._bind(args, kwargs)
        if vm._converters:
            args = list(args)
            for i, conv in vm._converters:
                args[i] = conv(args[i])
        for i, v in enumerate(args):
            if not vm._checks[i](v):
                vm._bad_arg(i, v)
        if self._direct is not None:
            return self._call_direct(args)
        return self._call(args)

    def slow_path(self, *args, **kwargs):
        """The fast closure's call (made on first use): the builtin's path for everything
        but a plain call with checked arguments (pyentry.py)."""
        if self._fast is None:
            self._fast = self.fast()
        return self._fast(*args, **kwargs)

    def fast(self):
        """This function as a plain closure when its values are all scalars (what
        ScriptFunction calls: no method dispatch, no argument block), else itself."""
        if self._direct is None:
            return self
        vm, out, exc, slow = self.vm, self._out, self._exception, self
        checks, convs, fix, n = vm._checks, vm._converters, self._fix_in, len(vm._checks)

        def call(*args, **kwargs):
            if kwargs or len(args) != n:
                return slow(*args, **kwargs)
            if convs or fix:
                return slow._call_direct(slow._checked(args))
            for check, v in zip(checks, args):
                if not check(v):
                    return slow(*args)  # (raises the VM's TypeError)
            if slow.gate is not None:
                slow.gate.tick()
            try:
                ctx, addr = _TLS.ctx
            except AttributeError:
                ctx, addr = _context()
            v = slow._direct(addr, *args)  # (read each call: a tier-up re-points it)
            if ctx.status:
                if slow._deopt(ctx):
                    return slow._rerun(ctx, args)
                raise exc(ctx)
            return v if out is None else out(v)
        call.native = self
        return call

    def _checked(self, args):
        vm = self.vm
        args = list(args)
        for i, conv in vm._converters:
            args[i] = conv(args[i])
        for i, v in enumerate(args):
            if not vm._checks[i](v):
                vm._bad_arg(i, v)
        return args

    def _call_direct(self, args):
        if self.gate is not None:
            self.gate.tick()
        given = args
        if self._fix_in:
            args = list(args)
            for i in self._fix_in:
                args[i] = 0
        ctx, addr = _context()
        v = self._direct(addr, *args)
        if ctx.status:
            if self._deopt(ctx):
                return self._rerun(ctx, given)
            raise self._exception(ctx)
        return v if self._out is None else self._out(v)

    def _call(self, args):
        if self.gate is not None:
            self.gate.tick()
        conv = Converter()
        natives = [conv.to_native(v, t) for v, t in zip(args, self.params)]
        packed = self.args_type(*natives)
        for i, t in enumerate(self.params):
            _record_types(conv, getattr(packed, f"a{i}"), t)
        ctx, ret = Context(), self._ret_type()
        status = self._shim(ctypes.addressof(ctx), ctypes.addressof(ret),
                            ctypes.addressof(packed))
        deopt = status and self._deopt(ctx)
        if not deopt:
            conv.write_back(self.params)
        try:
            if deopt:
                return self._rerun(ctx, args)  # (the arguments as they came: unchanged)
            if status:
                raise self._exception(ctx)
            return conv.to_python(ret if not isinstance(ret, ctypes._SimpleCData) else ret.value,
                                  self.ret)
        finally:
            if not status and self.ret in self._release:
                self._release[self.ret](ctypes.addressof(ret))
            for i, t in enumerate(self.params):
                if t in self._release:
                    self._release[t](ctypes.addressof(packed) + _offset(self.args_type, i))
            for ptr, t in conv.made():
                slot = ctypes.c_void_p(ptr)
                self._release[t](ctypes.addressof(slot))

    def on_error(self, ctx_address: int, *args):
        """What a call that ended with an error status gives (pycall.py's builtin calls
        this with its context block): the call again on the VM for a deopt, else the VM's
        exception."""
        ctx = Context.from_address(ctx_address)
        if self._deopt(ctx):
            return self._rerun(ctx, args)
        raise self._exception(ctx)

    def _rerun(self, ctx, args):
        """The call again after a deopt: natively when the quick tier's poll left it (the
        optimized code is installed: `again` runs it), else on the VM."""
        if self.again is not None and self._sites[ctx.site].text == TIERUP:
            return self.again(*args)
        return self.vm(*args)

    def _deopt(self, ctx) -> bool:
        """The native call left for the VM (a deopt site, codegen.FunctionGen.deopt_if)."""
        return self._sites[ctx.site].kind == "deopt"

    def _exception(self, ctx) -> BaseException:
        site = self._sites[ctx.site]
        e = build_exception(site, list(ctx.payload))
        frames = [self._sites[ctx.frames[i]] for i in range(min(ctx.nframes, len(ctx.frames)))]
        sites = list(reversed(frames)) + [site]
        add_note(e, sites, self._sources)
        return with_script_frames(e, [f for s in sites for f in s.frames()])


def _offset(struct_type, i: int) -> int:
    return getattr(struct_type, f"a{i}").offset


def build_exception(site, payload) -> BaseException:
    """The exception the VM raises at site, given the recorded operands."""
    from ember import ops
    from ember.ops.scalar_builtins import exc_new

    if site.kind == "kernel":
        try:
            ops.get(site.op).kernel(*decode_payload(site, payload))
        except Exception as e:  # noqa: BLE001 - the kernel's exception is the result
            e.__traceback__ = None
            return e
        return RuntimeError(f"ember's native code reported that {site.op} fails at "
                            f"{site.file}:{site.line}, but its kernel does not (a bug)")
    if site.kind == "exc":
        from ember.llvm.ops_dstr import make_exception

        e = make_exception(site.exc[0], site.exc[1], payload)
        if len(site.exc) == 4:  # raise … from (None, or a constant exception)
            e.__cause__ = None if site.exc[2] is None else exc_new(site.exc[2], site.exc[3])
        return e
    if site.kind == "narrow":
        from ember.mobile import types as RT
        return TypeError(f"expected a value of type {RT.show(RT.parse(site.text))}, "
                         f"got {RT.describe(None)}")
    if site.kind == "range":
        return ValueError("range() arg 3 must not be zero")
    if site.kind == "recursion":
        return RecursionError("maximum recursion depth exceeded")
    return RuntimeError(f"native error at {site.file}:{site.line}")


@functools.lru_cache(maxsize=4096)
def _frame_code(file: str, line: int, name: str, last: bool):
    """A code object whose one statement stands at file:line in a function called name:
    a Python traceback entry for a script frame (the VM's translated functions give the
    same ones). The statement calls the next frame, or raises in the innermost."""
    body = "raise __ember_e" if last else "__ember_next()"
    code = compile("\n" * (max(line, 1) - 1) + body, file or "<ember>", "exec")
    name = name.rsplit(".", 1)[-1] or "<ember>"
    try:
        return code.replace(co_name=name, co_qualname=name)
    except TypeError:  # (Python < 3.11 has no co_qualname)
        return code.replace(co_name=name)


def with_script_frames(e: BaseException, frames) -> BaseException:
    """e carrying a traceback through frames ((file, line, function), outermost first), as
    if the script had raised it there natively."""
    if not frames:
        return e
    glob: dict = {"__builtins__": {}, "__ember_e": e}
    step = functools.partial(exec, _frame_code(*frames[-1], True), glob)
    for file, line, name in reversed(frames[:-1]):
        step = functools.partial(exec, _frame_code(file, line, name, False),
                                 {"__builtins__": {}, "__ember_next": step})
    try:
        step()
    except BaseException as raised:  # noqa: BLE001 - it is e, now with the frames
        return raised
    return e


def add_note(e: BaseException, frames, sources) -> None:
    lines = ["ember script traceback (most recent call last):"]
    for file, line, name in [f for s in frames for f in s.frames()]:
        lines.append(f'  File "{file}", line {line}, in {name}')
        text = sources.get(file)
        src = text.splitlines()[line - 1] if text and 0 < line <= text.count("\n") + 1 \
            else linecache.getline(file, line)
        if src.strip():
            lines.append("    " + src.strip())
    try:
        e.add_note("\n".join(lines))
        e.__ember_traced__ = True
    except (AttributeError, TypeError):
        pass
