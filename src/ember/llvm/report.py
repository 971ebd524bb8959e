"""Where a scripted function's tensor ops run under `backend="llvm"`: the native report.

    r = f.native_report(x)         # with example arguments: one recorded call
    print(r)                       # one row per tensor op site, then the totals
    r.rows[0].where                # "fused" | "native" | "numpy" | "view"
    open("f.dot", "w").write(r.dot())   # Graphviz: fused groups outlined, nodes colored

Statically (no arguments) each tensor op site of the entry and its callees is classified
by what could run it: a `tensor.fused` group (its steps; natively when every step has an
emitter and its tensors are float32, C-contiguous and of one shape), an operator with a
native twin (kernels.NATIVE: native where the twin covers the call), a view or metadata
op (no element is computed), or numpy (no native twin: the reason says so).

With arguments, one call runs on a second build of the same program whose kernels and
groups are wrapped by recorders: each call of a site notes whether it ran natively (the
twins' own `kernels.COUNTS` entries, or the group's `explain`) and, if not, why. Sites are
told apart by the calling frame's position in the translated function and matched to the
IR's sites of the same operator and line in order. The report's call never touches the
function's own kernels, so it changes no state of theirs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

VIEWS = frozenset(
    "tensor." + n for n in (
        "size", "dim", "dtype", "numel", "shape", "device", "is_contiguous", "squeeze",
        "unsqueeze", "flatten", "view", "reshape", "transpose", "permute", "t", "index",
        "select", "slice", "narrow", "detach", "contiguous", "expand", "unbind", "chunk",
        "split", "len", "item", "stride", "is_floating_point", "requires_grad", "zeros",
        "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like"))
"""Operators that compute no element from their operands (metadata, views, fills)."""


@dataclass
class Row:
    """One tensor op site: its operator (for a group, "tensor.fused"), the group's steps,
    where it runs ("fused" | "native" | "numpy" | "view"; with calls recorded, where the
    calls ran), the user-level source line and the op's own, calls per outcome and the
    reasons of the numpy ones."""

    op: str
    where: str
    line: str
    op_line: str
    steps: tuple = ()
    calls: dict = field(default_factory=dict)
    reasons: dict = field(default_factory=dict)
    id: int = 0
    inputs: tuple = ()
    """Ids of the rows whose results this op reads (-1: an argument of the function)."""

    def label(self) -> str:
        if self.steps:
            return "fused(" + ", ".join(s.removeprefix("tensor.") for s in self.steps) + ")"
        return self.op.removeprefix("tensor.")


class NativeReport:
    """The rows of one entry (see the module); `str()` is the table, `dot()` the graph."""

    def __init__(self, entry: str, backend: str, rows: list, recorded: bool, note: str = ""):
        self.entry = entry
        self.backend = backend
        self.rows = rows
        self.recorded = recorded
        self.note = note

    def totals(self) -> dict:
        """where -> number of sites (recorded: where their calls ran)."""
        out: dict = {}
        for r in self.rows:
            out[r.where] = out.get(r.where, 0) + 1
        return out

    def fallbacks(self) -> list:
        """(operator, line, reason, calls) of every site that ran (or would run) on numpy
        and computes elements."""
        out = []
        for r in self.rows:
            for why, n in r.reasons.items():
                out.append((r.label(), r.line, why, n))
        return out

    def __str__(self) -> str:
        body = "natively" if self.backend == "llvm" else "on the VM, tensor ops as below"
        head = f"native report of {self.entry} (backend llvm: its body runs {body}; " + \
            ("one recorded call)" if self.recorded else "static: no call recorded)")
        lines = [head]
        if self.note:
            lines.append("  " + self.note)
        w = max([len(r.label()) for r in self.rows] + [8])
        for r in self.rows:
            calls = ", ".join(f"{k} {v}" for k, v in sorted(r.calls.items()))
            if self.recorded and not r.calls:
                calls = "not run"
            lines.append(f"  {r.label():<{w}}  {r.where:<6}  {r.line}" +
                         (f"  [{calls}]" if calls else ""))
            for why, n in r.reasons.items():
                lines.append(f"  {'':<{w}}    numpy: {why}" +
                             (f" ({n} call{'s' * (n != 1)})" if n else ""))
        t = self.totals()
        lines.append("  total: " + ", ".join(f"{t[k]} {k}" for k in
                                              ("fused", "native", "numpy", "view") if k in t))
        return "\n".join(lines)

    def dot(self) -> str:
        """The ops as a Graphviz digraph: fused groups are boxes, native ops green, numpy
        ones orange, views grey; edges follow the tensors."""
        color = {"native": "palegreen", "fused": "palegreen", "numpy": "orange",
                 "view": "lightgrey"}
        out = ["digraph native_report {", "  rankdir=TB;", '  node [shape=box, style=filled];',
               f'  label="{_q(self.entry)} (backend llvm)";',
               '  in [label="arguments", shape=ellipse, fillcolor=white];']
        for r in self.rows:
            label = _q(f"{r.op.removeprefix('tensor.')}\\n{r.line}")
            if r.steps:
                out.append(f"  subgraph cluster_{r.id} {{")
                out.append(f'    label="fused group ({"numpy" if r.where == "numpy" else "native"})"; '
                           'style=rounded;')
                out.append(f'    color={"darkgreen" if r.where != "numpy" else "red"};')
                prev = None
                for k, s in enumerate(r.steps):
                    out.append(f'    n{r.id}_{k} [label="{_q(s.removeprefix("tensor."))}", '
                               f'fillcolor={color[r.where]}];')
                    if prev is not None:
                        out.append(f"    {prev} -> n{r.id}_{k};")
                    prev = f"n{r.id}_{k}"
                out.append("  }")
            else:
                out.append(f'  n{r.id} [label="{label}", fillcolor={color[r.where]}];')
        for r in self.rows:
            for src in r.inputs:
                out.append(f"  {_node(self.rows, src, last=True)} -> {_node(self.rows, r.id)};")
        out.append("}")
        return "\n".join(out) + "\n"


def _q(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\\\\n", "\\n")


def _node(rows, i, last=False) -> str:
    if i < 0:
        return "in"
    r = rows[i]
    if not r.steps:
        return f"n{i}"
    return f"n{i}_{len(r.steps) - 1 if last else 0}"


# ----------------------------------------------------------------------------- static

def static_report(module, entry: str, backend: str) -> NativeReport:
    from ember.ir.ops import CallOp, FusedOp, KernelOp

    from ember.llvm.kernels import NATIVE

    rows: list = []
    by_value: dict = {}
    seen: set = set()

    def visit(fname):
        if fname in seen or fname not in module.funcs:
            return
        seen.add(fname)
        func = module.funcs[fname]
        for arg in func.body.args:
            by_value[arg] = -1
        for op in _walk(func):
            if isinstance(op, CallOp):
                visit(op.callee)
                continue
            if isinstance(op, FusedOp):
                steps = tuple(o.name for o in op.body.ops if isinstance(o, KernelOp))
                where, why = fused_where(steps)
                row = Row("tensor.fused", where, *_lines(op.loc), steps=steps)
                if why:
                    row.reasons[why] = 0
            elif isinstance(op, KernelOp) and op.name.startswith("tensor."):
                if op.name in VIEWS:
                    where = "view"
                elif op.name in NATIVE:
                    where = "native"
                else:
                    where = "numpy"
                row = Row(op.name, where, *_lines(op.loc))
                if where == "numpy":
                    row.reasons[f"no native kernel for {op.name}"] = 0
            else:
                continue
            if not any(_is_tensor(r.type) for r in op.results) and op.name in VIEWS:
                continue  # size, dim, dtype: metadata, not part of the tensor graph
            row.id = len(rows)
            row.inputs = tuple(sorted({by_value[v] for v in op.operands if v in by_value}))
            rows.append(row)
            for r in op.results:
                if _is_tensor(r.type):
                    by_value[r] = row.id

    visit(entry)
    return NativeReport(entry, backend, rows, recorded=False)


def _walk(func):
    """The function's ops in order, nested regions included but for a fused group's."""
    from ember.ir.ops import FusedOp

    def walk(op):
        yield op
        if not isinstance(op, FusedOp):
            for r in op.regions:
                for o in list(r.block.ops):
                    yield from walk(o)
    for op in list(func.body.ops):
        yield from walk(op)


def _is_tensor(t) -> bool:
    return str(t).startswith("tensor")


def fused_where(steps) -> tuple:
    """("fused", None) when a group of these operators runs as one native loop or product
    with its epilogue (given float32 contiguous operands), else ("numpy", why)."""
    from ember.llvm.fused import _EPILOGUE, EPILOGUE_ACTS, STEPS
    from ember.llvm.kernels import NATIVE

    if steps and steps[0] in _EPILOGUE:
        if len(steps) == 2 and steps[1].removeprefix("tensor.") in EPILOGUE_ACTS:
            return "fused", None
        lacking = [s for s in steps if s not in NATIVE]
        if lacking:
            return "numpy", ("a producer group beyond producer + activation runs step by "
                             "step; "
                             "no native twin for " + ", ".join(lacking))
        return "native", None
    lacking = sorted({s for s in steps if s not in STEPS})
    if lacking:
        return "numpy", "no native emitter for the steps " + ", ".join(lacking)
    return "fused", None


def _lines(loc) -> tuple[str, str]:
    """(the deepest frame outside the ember package, else the outermost: "file:line
    (function)"; the op's own "file:line")."""
    import os

    if loc.is_unknown:
        return ("?", "?")
    own = f"{os.path.basename(loc.file)}:{loc.line}"
    frames = []  # (function, file, line) outermost first
    chain = loc.inlined
    for i, (name, _, file) in enumerate(chain):
        line = chain[i + 1][1] if i + 1 < len(chain) else loc.line
        frames.append((name, file, line))
    if not frames:
        return own, own
    ember_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    user = [f for f in frames if not os.path.abspath(f[1]).startswith(ember_dir + os.sep)]
    name, file, line = user[-1] if user else frames[0]
    return f"{os.path.basename(file)}:{line} ({name})", own


# ----------------------------------------------------------------------------- recorded

def recorded_report(compiled, entry: str, backend: str, args, kwargs) -> NativeReport:
    """The static report, with one call of `entry` recorded (see the module)."""
    from ember import mobile

    report = static_report(compiled.module, entry, backend)
    calls: list = []  # (code, lasti, line, op, outcome, reason)
    loaded = mobile.build(compiled.program, fused_group=_group_recorder(calls),
                          kernel_map=_kernel_recorder(calls))
    loaded.entry(entry)(*args, **kwargs)
    _attach(report, calls)
    report.recorded = True
    return report


def _frame_key(depth=2):
    f = sys._getframe(depth)
    return f.f_code, f.f_lasti, f.f_lineno


def _outcome(before: dict, name: str):
    """("native" | "numpy", None) from the twins' counts since `before`, or None."""
    from ember.llvm.kernels import COUNTS

    ran = [k for k, v in COUNTS.items() if v != before.get(k, 0)]
    if not ran:
        return None
    own = [w for n, w in ran if n == name] or [w for _, w in ran]
    return ("numpy" if "numpy" in own else "native"), None


def _kernel_recorder(calls):
    from ember.llvm import kernels

    def wrap(name, kernel):
        twin = kernels.native_kernel(name, kernel)
        if not name.startswith("tensor."):
            return twin

        def recorder(*a, **kw):
            code, lasti, line = _frame_key()
            before = dict(kernels.COUNTS)
            explain = getattr(twin, "explain", None)
            told = explain(*a) if explain is not None else None
            out = twin(*a, **kw)
            got = _outcome(before, name) or told
            if got is None:
                got = ("view", None) if name in VIEWS else \
                    ("numpy", f"no native kernel for {name}")
            elif got[0] == "numpy" and got[1] is None:
                why = getattr(twin, "why_numpy", None)
                got = ("numpy", why(*a) if why is not None else
                       "outside the native kernel's coverage: " + describe_args(a))
            calls.append((code, lasti, line, name, got[0], got[1]))
            return out
        return recorder
    return wrap


def _group_recorder(calls):
    from ember.llvm import kernels
    from ember.llvm.fused import NativeFusedGroup

    class Recorded(NativeFusedGroup):
        def __call__(self, *a):
            code, lasti, line = _frame_key()
            before = dict(kernels.COUNTS)
            told = self.explain(a)
            out = super().__call__(*a)
            if self._producer is not None:
                steps = tuple(n for n, _ in self.specs)
                where, why = fused_where(steps)
                got = _outcome(before, steps[0])
                if got is None or got[0] == "numpy":
                    where = "numpy"
                    why = why or "the product's native kernel does not cover the call: " + \
                        describe_args(a)
                told = (where, why)
            elif told[0] == "native":
                told = ("fused", None)
            calls.append((code, lasti, line, "tensor.fused", told[0], told[1]))
            return out
    return Recorded


def describe_args(args) -> str:
    import numpy as np

    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            c = "" if a.flags.c_contiguous else " strided"
            out.append(f"{a.dtype}{list(a.shape)}{c}")
        elif isinstance(a, (list, tuple)) and len(a) <= 4:
            out.append(repr(a))
        elif a is None or isinstance(a, (bool, int, float)):
            out.append(repr(a))
        else:
            out.append(type(a).__name__)
    return ", ".join(out)


def _attach(report: NativeReport, calls: list) -> None:
    """Match recorded sites to rows: per (operator, line), both in order."""
    sites: dict = {}
    for code, lasti, line, op, where, why in calls:
        sites.setdefault((code, lasti, line, op), []).append((where, why))
    groups: dict = {}
    for (code, lasti, line, op), outs in sites.items():
        groups.setdefault((op, line), []).append((id(code), lasti, outs))
    rows: dict = {}
    for r in report.rows:
        rows.setdefault((r.op, _line_no(r.op_line)), []).append(r)
    for key, found in groups.items():
        found.sort(key=lambda t: (t[0], t[1]))
        cands = rows.get(key, [])
        for k, (_, _, outs) in enumerate(found):
            if not cands:
                break
            _apply(cands[min(k, len(cands) - 1)], outs)
    for r in report.rows:
        if not r.calls:
            r.reasons = {}


def _line_no(s: str) -> int:
    try:
        return int(s.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return 0


def _apply(row: Row, outs) -> None:
    if not row.calls:
        row.reasons = {}
    for where, why in outs:
        row.calls[where] = row.calls.get(where, 0) + 1
        if where == "numpy" and why:
            row.reasons[why] = row.reasons.get(why, 0) + 1
    ran = set(row.calls)
    for w in ("numpy", "view", "native", "fused"):
        if w in ran:
            row.where = w
            break
