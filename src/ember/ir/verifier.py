"""The IR verifier: structure, dominance, terminators, and each op's own checks.

Checked, for every function:
- parent pointers and use lists agree with the operand lists;
- every operand is defined before its use in the same block or an enclosing one
  (structured dominance), and in the same function;
- every block ends in exactly one terminator, and terminators appear nowhere else;
- each terminator fits its context: `yield` types match the parent `if`/`try`
  results or a loop's carried values, `condition` ends a while condition,
  `break`/`continue` sit in a loop body and carry its values, `return` matches
  the function's result type;
- each op's `verify_()` (types against op definitions and kernel schemas);
- calls name functions that exist, with matching argument and result types.
"""

from __future__ import annotations

from ember.errors import VerifyError
from ember.ir import types as T
from ember.ir.core import SymbolRef, Use
from ember.ir.ops import (
    BreakOp, CallOp, ClosureOp, ConditionOp, ConstOp, ContinueOp, ForOp, FuncOp, IfOp, RaiseOp,
    ReturnOp, TryOp, UnreachableOp, WhileOp, YieldOp, _LoopOp, fail,
)


def verify_module(m) -> None:
    """Raise VerifyError at the first broken invariant of module m."""
    _check_objects(m)
    for c in m.classes.values():
        for name, sym in c.methods.items():
            if sym not in m.funcs:
                raise VerifyError(f"class !{c.name}: method {name} names @{sym}, which is not "
                                  "a function of the module")
    for f in m.funcs.values():
        verify_func(f, m)


def _check_objects(m) -> None:
    """Every object names a declared class, has one value per field, and each value fits
    its field's type; objects refer only to tensors and to objects defined before them."""
    seen: set = set()
    for o in m.objects.values():
        decl = m.classes.get(o.cls)
        if decl is None:
            raise VerifyError(f"object @{o.name} has undeclared class !{o.cls}")
        if len(o.values) != len(decl.fields):
            raise VerifyError(f"object @{o.name} has {len(o.values)} values for the "
                              f"{len(decl.fields)} fields of !{o.cls}")
        for (fname, ftype), v in zip(decl.fields, o.values):
            if not _value_fits(m, v, ftype, seen):
                raise VerifyError(f"object @{o.name}: field '{fname}' of type {ftype} cannot "
                                  f"hold {v!r:.80}")
        seen.add(o.name)


def _value_fits(m, v, t, seen) -> bool:
    if isinstance(t, (T.OptionalType, T.UnionType)):
        return any(_value_fits(m, v, x, seen) for x in T.members(t))
    if isinstance(v, SymbolRef):
        if v.name in m.tensors:
            return T.is_subtype(m.tensors[v.name].type, t)
        return v.name in seen and T.is_subtype(m.objects[v.name].type, t)
    if isinstance(v, list):
        return isinstance(t, T.ListType) and all(_value_fits(m, x, t.elem, seen) for x in v)
    if isinstance(v, tuple):
        return isinstance(t, T.TupleType) and len(t.elems) == len(v) and \
            all(_value_fits(m, x, e, seen) for x, e in zip(v, t.elems))
    if isinstance(v, (set, frozenset)):
        return isinstance(t, T.SetType) and all(_value_fits(m, x, t.elem, seen) for x in v)
    if isinstance(v, dict):
        return isinstance(t, T.DictType) and all(
            _value_fits(m, k, t.key, seen) and _value_fits(m, x, t.value, seen)
            for k, x in v.items())
    scalar = {bool: T.BOOL, int: T.I64, float: T.F64, complex: T.C128, str: T.STR,
              type(None): T.NONE}
    return scalar.get(type(v)) == t


def verify_func(f: FuncOp, m=None) -> None:
    f.verify_()
    _Verifier(f, m).run()


class _Verifier:
    def __init__(self, f: FuncOp, m):
        self.f = f
        self.m = m
        self.visible: set = set()

    def run(self) -> None:
        block = self.f.body
        self._check_block(block, self.f.regions[0], [])

    def _check_block(self, block, region, ctx) -> None:
        if block.parent is not region:
            raise VerifyError(f"block parent pointer broken in @{self.f.sym_name}")
        added = list(block.args)
        self.visible.update(added)
        if not block.ops:
            raise VerifyError(f"empty block in @{self.f.sym_name} (a block needs a terminator)")
        for i, op in enumerate(block.ops):
            self._check_op(op, block, ctx, last=i == len(block.ops) - 1)
            added.extend(op.results)
            self.visible.update(op.results)
        self.visible.difference_update(added)

    def _check_op(self, op, block, ctx, last: bool) -> None:
        if op.parent is not block:
            fail(op, "has a broken parent pointer")
        for i, v in enumerate(op.operands):
            if v not in self.visible:
                fail(op, f"operand {i} is not defined before this use")
            if Use(op, i) not in v.uses:
                fail(op, f"operand {i}'s use list does not record this use")
        for r in op.results:
            if any(u.op.operands[u.index] is not r for u in r.uses):
                fail(op, "a result's use list is stale")
        if op.is_terminator != last:
            fail(op, "must end its block" if op.is_terminator else
                 "is not a terminator but ends its block")
        op.verify_()
        if op.is_terminator:
            self._check_terminator(op, ctx)
        if isinstance(op, (CallOp, ClosureOp)):
            self._check_call(op)
        if isinstance(op, ConstOp) and isinstance(op.value, SymbolRef) and self.m is not None:
            t = self.m.symbol_type(op.value.name)
            if t is None:
                fail(op, f"refers to @{op.value.name}, which the module does not define")
            if not T.is_subtype(t, op.result.type):
                fail(op, f"@{op.value.name} has type {t}, not {op.result.type}")
        for idx, region in enumerate(op.regions):
            if region.parent is not op:
                fail(op, "has a region with a broken parent pointer")
            self._check_block(region.block, region, ctx + [(op, idx)])

    # -- terminators ---------------------------------------------------------------------------
    def _check_terminator(self, op, ctx) -> None:
        types = [v.type for v in op.operands]
        if isinstance(op, ReturnOp):
            if types != [self.f.type.ret]:
                fail(op, f"returns {_fmt(types)} but @{self.f.sym_name} returns {self.f.type.ret}")
            return
        if isinstance(op, (RaiseOp, UnreachableOp)):
            return
        if isinstance(op, (BreakOp, ContinueOp)):
            loop = _enclosing_loop_body(ctx)
            if loop is None:
                fail(op, "is not inside a loop body")
            if types != [r.type for r in loop.results]:
                fail(op, f"carries {_fmt(types)} but the loop carries "
                         f"{_fmt([r.type for r in loop.results])}")
            return
        if not ctx:
            fail(op, "cannot end a function body (use return)")
        parent, idx = ctx[-1]
        if isinstance(op, ConditionOp):
            if not (isinstance(parent, WhileOp) and idx == 0):
                fail(op, "may only end a while loop's condition region")
            return
        if isinstance(op, YieldOp):
            self._check_yield(op, types, parent, idx)

    def _check_yield(self, op, types, parent, idx) -> None:
        if isinstance(parent, WhileOp) and idx == 0:
            fail(op, "cannot end a while condition (use condition)")
        if isinstance(parent, TryOp) and parent.finally_region is parent.regions[idx]:
            if types:
                fail(op, "in a finally region yields no values")
            return
        want = [r.type for r in parent.results]
        if isinstance(parent, (IfOp, TryOp, _LoopOp)) and types != want:
            fail(op, f"yields {_fmt(types)} but the parent '{parent.name}' expects {_fmt(want)}")

    # -- calls ---------------------------------------------------------------------------------
    def _check_call(self, op) -> None:
        if self.m is None:
            return
        callee = self.m.funcs.get(op.callee)
        if callee is None:
            fail(op, f"calls unknown function @{op.callee}")
        params = list(callee.type.params)
        args = [v.type for v in op.operands]
        if isinstance(op, CallOp):
            if args != params:
                fail(op, f"passes {_fmt(args)} to @{op.callee} which takes {_fmt(params)}")
            if op.result.type != callee.type.ret:
                fail(op, f"result type {op.result.type} differs from @{op.callee}'s "
                         f"{callee.type.ret}")
            return
        ft = op.result.type
        if args + list(ft.params) != params or ft.ret != callee.type.ret:
            fail(op, f"closure type {ft} with captures {_fmt(args)} does not match "
                     f"@{op.callee}: {callee.type}")


def _enclosing_loop_body(ctx):
    """The innermost loop whose body (not condition or else) contains the current block."""
    for op, idx in reversed(ctx):
        if isinstance(op, ForOp) and idx == 0:
            return op
        if isinstance(op, WhileOp) and idx == 1:
            return op
    return None


def _fmt(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


def check_types_equal(op, got: T.Type, want: T.Type, what: str) -> None:
    if got != want:
        fail(op, f"{what} has type {got}, expected {want}")
