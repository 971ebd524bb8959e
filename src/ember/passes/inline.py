"""inline: replace calls of small functions by the callee's body.

Inlined: callees that are not recursive (directly or mutually), have at most
`max-ops` ops, whose only `return` is the last op of their body (a callee
with a return nested in an if or loop is left alone: structured IR has no
jump out of the middle of the caller), and that come from the same source
file as the caller (a run-time Python traceback's file is the caller's), unless
`cross-file` is set. Inlined ops
keep their own line and record the call in their location (`Loc.inlined`), so
a run-time traceback still shows the callee's frame.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.ir.core import Loc
from ember.ir.ops import CallOp, ReturnOp
from ember.passes.registry import Pass
from ember.passes.util import all_ops, funcs


def call_graph(module) -> dict:
    return {name: {op.callee for op in all_ops(f) if isinstance(op, CallOp)}
            for name, f in module.funcs.items()}


def recursive_functions(module) -> set:
    """Functions on a call cycle (including self-recursion)."""
    graph = call_graph(module)
    out = set()
    for start in graph:
        stack, seen = list(graph[start]), set()
        while stack:
            n = stack.pop()
            if n == start:
                out.add(start)
                break
            if n in seen or n not in graph:
                continue
            seen.add(n)
            stack.extend(graph[n])
    return out


def inlinable(f, max_ops: int) -> bool:
    ops = all_ops(f)
    if len(ops) > max_ops:
        return False
    returns = [op for op in ops if isinstance(op, ReturnOp)]
    return len(returns) == 1 and f.body.ops[-1] is returns[0]


def inline_call(call: CallOp, callee) -> None:
    mapping = dict(zip(callee.args, call.operands))
    block = call.parent
    name = str(callee.attrs.get("qualname") or callee.sym_name.split("$")[0])
    site = call.loc.inlined + ((name, call.loc.line, callee.loc.file),)
    for op in callee.body.ops[:-1]:
        new = op.clone(mapping)
        for inner in new.walk():
            inner.loc = _inlined_loc(inner.loc, site)
        block.insert_before(call, new)
    ret = callee.body.ops[-1]
    call.replace_with([mapping.get(ret.operands[0], ret.operands[0])])


def _inlined_loc(loc: Loc, site) -> Loc:
    if loc.is_unknown:
        return loc
    return Loc(loc.file, loc.line, loc.col, site + loc.inlined)


def inline(module, max_ops: int, cross_file: bool = False) -> bool:
    rec = recursive_functions(module)
    ok = {name for name, f in module.funcs.items()
          if name not in rec and inlinable(f, max_ops)}
    changed = False
    for f in funcs(module):
        for op in all_ops(f):
            if isinstance(op, CallOp) and op.parent is not None and op.callee in ok:
                callee = module.funcs[op.callee]
                if callee.loc.file != f.loc.file and not cross_file:
                    continue
                inline_call(op, callee)
                changed = True
    return changed


@dataclass
class Inline(Pass):
    name = "inline"
    max_ops: int = 40
    cross_file: bool = False
    """Also inline callees from other source files (ember.freeze does): the script traceback
    still names each frame's file, but Python's own traceback shows the caller's file."""

    def run(self, module) -> bool:
        return inline(module, self.max_ops, self.cross_file)
