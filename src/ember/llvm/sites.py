"""Error sites: how native code reports an exception, and how the boundary rebuilds it.

Native code never builds a Python object. An operation that fails stores, in the call's
context block, the index of its *site* (a record made at compile time: which operation,
which source line) and up to four 64-bit payload words (its operands), then returns an
error status through every native frame; each call site on the way appends its own site
to the context's frame list. The boundary (boundary.py) then raises the exception the VM
would raise: for a kernel operation it calls the same `ember.ops` kernel on the recorded
operands, so type and message are the VM's by construction.

Context block layout (ctypes `Context` below, LLVM `CTX` in codegen.py):
`{i32 site, i32 nframes, i64 class code, [4 x i64] payload, [MAX_FRAMES x i32] frames,
i32 status}`.
"""

from __future__ import annotations

import ctypes
import struct
from dataclasses import dataclass, field

from ember.ir import types as T

MAX_FRAMES = 64
NPAYLOAD = 4


class Context(ctypes.Structure):
    _fields_ = [("site", ctypes.c_int32), ("nframes", ctypes.c_int32),
                ("code", ctypes.c_int64), ("payload", ctypes.c_int64 * NPAYLOAD),
                ("frames", ctypes.c_int32 * MAX_FRAMES), ("status", ctypes.c_int32),
                ("base", ctypes.c_int64)]


STACK_BUDGET = 4 << 20
"""Bytes of C stack a native call may use below its entry (the context's base) before a
recursive function leaves it for the VM (codegen.FunctionGen._enter): a thread's stack is
8 MiB by default, and CPython's frames live on the heap, so deep recursion that CPython
runs (a raised recursion limit) runs on the VM instead of overflowing the C stack."""
STACK = "the native stack is nearly exhausted"
"""A deopt site's text when a recursive call found STACK_BUDGET used."""

TIERUP = "the optimized code is ready"
"""A deopt site's text when the quick tier's poll left the call (codegen.poll_tierup): the
boundary runs the call again natively, on the optimized code."""


@dataclass(frozen=True)
class Site:
    """One place native code can raise.

    kind: "kernel" (re-run ember.ops kernel `op` on the payload), "exc" (raise class
    `exc[0]` with message `exc[1]`, None for none; `exc[2:4]`, when there, the class and
    message of its `__cause__`, (None, None) for `from None`), "narrow" (a None where `text` type
    was required), "range" (range() step 0), "recursion" (depth limit), "call" (a call
    site: only a traceback frame), "deopt" (no error: the call runs again on the VM;
    `text` says why).
    args: per kernel operand, how to rebuild it: "i64", "f64", "bool", "none",
    ("len", elem_type_text) for a list (only its length matters for messages),
    ("const", value) for a compile-time constant.
    """

    kind: str
    file: str
    line: int
    func: str
    op: str = ""
    args: tuple = ()
    exc: tuple = ()
    text: str = ""
    inlined: tuple = field(default=())
    """The op's Loc.inlined: (callee, line of the call in its caller, callee's file)."""
    func_file: str = ""
    """The file of the function holding the op (the op's own file unless inlined)."""

    def frames(self) -> list:
        """(file, line, function) per script frame, outermost first (inlined calls too)."""
        out, name, file = [], self.func, self.func_file or self.file
        for callee, call_line, callee_file in self.inlined:
            out.append((file, call_line, name))
            name, file = callee, callee_file
        out.append((self.file, self.line, name))
        return out

    def to_json(self) -> list:
        return [self.kind, self.file, self.line, self.func, self.op,
                [_arg_json(a) for a in self.args], list(self.exc), self.text,
                [list(x) for x in self.inlined], self.func_file]

    @staticmethod
    def from_json(r) -> "Site":
        kind, file, line, func, op, args, exc, text, inlined, func_file = r
        return Site(kind, file, line, func, op, tuple(_arg_from_json(a) for a in args),
                    tuple(exc), text, tuple(tuple(x) for x in inlined), func_file)


def _arg_json(a):
    if isinstance(a, tuple) and a[0] == "const" and isinstance(a[1], tuple):
        return ["const_tuple", list(a[1])]  # (JSON would read a tuple back as a list)
    return a if isinstance(a, str) else list(a)


def _arg_from_json(a):
    if isinstance(a, list) and a[0] == "const_tuple":
        return ("const", tuple(a[1]))
    return a if isinstance(a, str) else tuple(a)


def decode_payload(site: Site, words) -> list:
    """The kernel's operands rebuilt from the payload words."""
    out, k = [], 0
    for a in site.args:
        if isinstance(a, tuple) and a[0] == "const":
            out.append(a[1])
            continue
        w = words[k]
        k += 1
        if a == "i64":
            out.append(int(w))
        elif a == "f64":
            out.append(struct.unpack("<d", struct.pack("<q", w))[0])
        elif a == "bool":
            out.append(bool(w))
        elif a == "none":
            out.append(None)
        else:  # ("len", elem): a list of that length; kernels' messages need no contents
            out.append([_ZERO.get(a[1], 0)] * int(w))
    return out


_ZERO = {"i64": 0, "f64": 0.0, "bool": False}


def kernel_arg_kind(t: T.Type):
    if t == T.I64:
        return "i64"
    if t == T.F64:
        return "f64"
    if t == T.BOOL:
        return "bool"
    if t == T.NONE:
        return "none"
    if isinstance(t, T.ListType):
        return ("len", str(t.elem))
    return None
