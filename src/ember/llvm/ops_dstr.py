"""Exception messages computed from numbers: built at the raise, in Python, from its operands.

Native code has no strings, but `raise ValueError("negative: " + str(n))` and `assert n <
10, f"{n} is too big"` are everywhere. A str value made by `str()`, `repr()`, `format()`
with a constant spec and `+` from constants and ints, floats and bools is a *deferred*
string: a compile-time expression over its scalar leaves (`Static("dstr", Deferred)`). The
only ops that take one are an exception's constructions (`exc.new`, and `exc.new_arg` for
an exception made from one value, `KeyError(n)`); the raise records the leaves in its
payload and the boundary evaluates the expression with the VM's own kernels
(`make_exception`), so the message is the VM's, character for character. A deferred string used
any other way keeps its function on the VM, as any str did.

Deferring moves no observable effect: these kernels are pure, and a `format` spec is
accepted only if it formats every sample of its value's type (a spec that could raise —
'c' of a large int — is not deferred).
"""

from __future__ import annotations

import math
import struct

from ember.ir import types as T
from ember.llvm.codegen import Static
from ember.llvm.layout import NotNative
from ember.llvm.ops_table import emitter
from ember.llvm.sites import NPAYLOAD

_KINDS = {T.I64: "i64", T.F64: "f64", T.BOOL: "bool"}
_SAMPLES = {"i64": (0, 1, -7, 255, 2**62, -2**63), "f64": (0.0, -1.5, 1e300, math.inf, math.nan),
            "bool": (True, False), "str": ("", "abc")}


class Deferred:
    """expr: ("s", text) | ("v", leaf index, kind) | ("op", kernel name, *exprs);
    leaves: the native values, in index order, with their kinds."""

    def __init__(self, expr, leaves):
        self.expr, self.leaves = expr, leaves


def _operand(g, v) -> Deferred:
    x = g.get(v)
    if isinstance(x, Static) and x.kind == "str":
        return Deferred(("s", x.value), [])
    if isinstance(x, Static) and x.kind == "dstr":
        return x.value
    kind = _KINDS.get(v.type)
    if kind is None or isinstance(x, Static):
        raise NotNative(f"a string made from a {v.type}")
    return Deferred(("v", 0, kind), [(x, kind)])


def _renumber(expr, index: list):
    if expr[0] == "v":
        return ("v", index[expr[1]], expr[2])
    if expr[0] == "op":
        return ("op", expr[1]) + tuple(_renumber(e, index) for e in expr[2:])
    return expr


def _combine(name: str, parts: list) -> Static:
    """The expression name(*parts), their leaves merged (a value used twice is one leaf)."""
    exprs, leaves = [], []
    for p in parts:
        index = []
        for leaf in p.leaves:
            at = next((k for k, (v, _) in enumerate(leaves) if v is leaf[0]), None)
            if at is None:
                at = len(leaves)
                leaves.append(leaf)
            index.append(at)
        exprs.append(_renumber(p.expr, index))
    if len(leaves) > NPAYLOAD:
        raise NotNative(f"a message made from more than {NPAYLOAD} values")
    return Static("dstr", Deferred(("op", name) + tuple(exprs), leaves))


@emitter("builtins.str", "builtins.repr")
def _str(g, op):
    v = op.operands[0]
    if v.type == T.STR and op.name == "builtins.str":
        return Static("dstr", _operand(g, v))
    return _combine(op.name, [_operand(g, v)])


@emitter("str.add")
def _add(g, op):
    return _combine(op.name, [_operand(g, v) for v in op.operands])


@emitter("builtins.format")
def _format(g, op):
    value, spec = op.operands
    s = g.get(spec)
    if not (isinstance(s, Static) and s.kind == "str"):
        raise NotNative("a format spec that is not a constant")
    kind = "str" if value.type == T.STR else _KINDS.get(value.type)
    if kind is None or not _safe_spec(kind, s.value):
        raise NotNative(f"format of a {value.type} with spec {s.value!r}")
    return _combine(op.name, [_operand(g, value), Deferred(("s", s.value), [])])


def _safe_spec(kind: str, spec: str) -> bool:
    if spec.endswith("c"):
        return False
    try:
        for x in _SAMPLES[kind]:
            format(x, spec)
    except (ValueError, TypeError, OverflowError):
        return False
    return True


class Argument:
    """An exception made from one value (`raise KeyError(n)`: its args are (n,))."""

    def __init__(self, value: Deferred):
        self.value = value


@emitter("exc.new_arg")
def _exc_new_arg(g, op):
    kind = g.get(op.operands[0])
    if not isinstance(kind, Static):
        raise NotNative("an exception class that is not a constant")
    return Static("exc", (kind.value, Argument(_operand(g, op.operands[1]))))


def message_site(msg) -> tuple:
    """A raise site's message: text or None as it is, a Deferred as ("dstr", expr), an
    Argument as ("arg", expr)."""
    if isinstance(msg, Deferred):
        return ("dstr", msg.expr)
    return ("arg", msg.value.expr) if isinstance(msg, Argument) else msg


def leaves(msg) -> list:
    """The native values a raise records for its message."""
    d = msg.value if isinstance(msg, Argument) else msg
    return [v for v, _ in d.leaves] if isinstance(d, Deferred) else []


def make_exception(kind: str, msg, payload) -> BaseException:
    """The exception of a raise site given its recorded payload (a message as text or
    None, a deferred message or argument through the VM's kernels)."""
    from ember.ops.scalar_builtins import exc_new, exc_new_arg

    if isinstance(msg, (list, tuple)) and msg[0] == "arg":
        return exc_new_arg(kind, _eval(msg[1], payload))
    return exc_new(kind, _eval(msg[1], payload) if isinstance(msg, (list, tuple)) else msg)


def _eval(expr, payload):
    from ember import ops

    if expr[0] == "s":
        return expr[1]
    if expr[0] == "v":
        w = int(payload[expr[1]])
        if expr[2] == "f64":
            return struct.unpack("<d", struct.pack("<q", w))[0]
        return bool(w) if expr[2] == "bool" else w
    return ops.get(expr[1]).kernel(*[_eval(e, payload) for e in expr[2:]])
