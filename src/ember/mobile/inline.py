"""Inline templates for the hottest scalar operators (the rest call their kernels).

Each template turns `R[A] := op(R[x], ...)` into Python statements with
exactly the semantics of the operator's kernel in ember.ops: CPython's own
operators, plus int64 overflow checks on int results, raising
`ember.ops.int64.overflow_error(symbol, a, b)` (helper `_ovf`). int ** and <<
take the inline path only for exponents/shifts that cannot build a huge
number (0..64 and 0..63); other operands go to the kernel, which raises the
right error without allocating. Keep in sync with ember/ops/scalar_*.py.

A template is `build(t, a, args, kernel) -> list[ast.stmt]`: t the
FunctionTranslator, a the destination register, args the argument registers,
kernel the global name of the operator's kernel.
"""

from __future__ import annotations

import ast

from ember.ops.int64 import INT64_MAX, INT64_MIN


def name(id_: str, store: bool = False) -> ast.Name:
    """A generated name (never text from an artifact)."""
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def call(fn: str, args) -> ast.Call:
    """`fn(args...)` for a generated global name fn."""
    return ast.Call(func=name(fn), args=list(args), keywords=[])


def assign(target: str, value) -> ast.Assign:
    """`target = value` for a generated local name."""
    return ast.Assign(targets=[name(target, True)], value=value)


_SMALL_MAX, _SMALL_MIN = (1 << 30) - 1, -(1 << 30)


def _above(expr):
    # Compare with a one-digit int first: CPython 3.11 specializes compares of one-digit
    # ints, and the int64 bound (three digits) is compared only for large values.
    return ast.BoolOp(op=ast.And(), values=[
        ast.Compare(left=expr, ops=[ast.Gt()], comparators=[ast.Constant(_SMALL_MAX)]),
        ast.Compare(left=expr, ops=[ast.Gt()], comparators=[ast.Constant(INT64_MAX)])])


def _below(expr):
    return ast.BoolOp(op=ast.And(), values=[
        ast.Compare(left=expr, ops=[ast.Lt()], comparators=[ast.Constant(_SMALL_MIN)]),
        ast.Compare(left=expr, ops=[ast.Lt()], comparators=[ast.Constant(INT64_MIN)])])


def _outside(expr, side: str):
    """The test `expr` is outside int64, on `side` ("above", "below" or "both")."""
    if side == "above":
        return _above(expr)
    if side == "below":
        return _below(expr)
    small = ast.BoolOp(op=ast.Or(), values=[
        ast.Compare(left=expr, ops=[ast.Gt()], comparators=[ast.Constant(_SMALL_MAX)]),
        ast.Compare(left=expr, ops=[ast.Lt()], comparators=[ast.Constant(_SMALL_MIN)])])
    big = ast.BoolOp(op=ast.Or(), values=[
        ast.Compare(left=expr, ops=[ast.Gt()], comparators=[ast.Constant(INT64_MAX)]),
        ast.Compare(left=expr, ops=[ast.Lt()], comparators=[ast.Constant(INT64_MIN)])])
    return ast.BoolOp(op=ast.And(), values=[small, big])


def _checked(t, a, expr, symbol, operands, side="both", undo=None):
    """`rA = expr` plus the int64 check on `side` (None: no check).

    The error message shows the original operands. When rA is one of them, the result goes
    to rA directly if `undo(j, result, other)` rebuilds operand j from the result and the
    other operand (x == (x + y) - y), else through the temp `_t`."""
    if side is None:
        return [t.assign(a, expr)]
    args = [t.R(r) for r in operands] + ([ast.Constant(None)] if len(operands) == 1 else [])
    target = f"r{a}"
    if a in operands:
        j = operands.index(a)
        if undo is not None and operands.count(a) == 1:
            args[j] = undo(j, name(target), args[1 - j])
        else:
            target = "_t"
    err = ast.Raise(exc=call("_ovf", [ast.Constant(symbol)] + args), cause=None)
    stmts = [assign(target, expr),
             ast.If(test=_outside(name(target), side), body=[err], orelse=[])]
    if target == "_t":
        stmts.append(t.assign(a, name("_t")))
    return stmts


def _undo_add(j, result, other):
    return ast.BinOp(left=result, op=ast.Sub(), right=other)


def _undo_sub(j, result, other):
    if j == 0:
        return ast.BinOp(left=result, op=ast.Add(), right=other)
    return ast.BinOp(left=other, op=ast.Sub(), right=result)


def _undo_mul(j, result, other):
    return ast.BinOp(left=result, op=ast.FloorDiv(), right=other)  # other != 0: it overflowed


def _int_const(t, r):
    c = t.consts.get(r)
    return c if type(c) is int else None


def _add_side(t, x, y):
    c = _int_const(t, y) if _int_const(t, y) is not None else _int_const(t, x)
    return "both" if c is None else ("above" if c >= 0 else "below")


def _sub_side(t, x, y):
    c = _int_const(t, y)
    return "both" if c is None else ("below" if c >= 0 else "above")


def _mul_side(t, x, y):
    if x == y:
        return "above"  # a square is never negative
    c = _int_const(t, y) if _int_const(t, y) is not None else _int_const(t, x)
    return None if c in (0, 1) else "both"


def _binop(node, symbol=None, side=None, undo=None):
    """A binary operator; with `symbol`, int64-checked on the side side(t, x, y) gives."""
    def build(t, a, args, kernel):
        x, y = args
        expr = ast.BinOp(left=t.R(x), op=node(), right=t.R(y))
        if symbol is None:
            return [t.assign(a, expr)]
        return _checked(t, a, expr, symbol, (x, y), side(t, x, y) if side else "both", undo)
    return build


def _guarded(node, symbol, hi):
    """int ** and <<: inline when 0 <= R[y] <= hi (the result is small enough to build),
    otherwise the kernel (negative operand errors, overflow without allocating)."""
    def build(t, a, args, kernel):
        x, y = args
        fast = _checked(t, a, ast.BinOp(left=t.R(x), op=node(), right=t.R(y)), symbol, (x, y))
        small = ast.Compare(left=ast.Constant(0), ops=[ast.LtE(), ast.LtE()],
                            comparators=[t.R(y), ast.Constant(hi)])
        slow = [t.assign(a, call(kernel, [t.R(x), t.R(y)]))]
        return [ast.If(test=small, body=fast, orelse=slow)]
    return build


def _compare(node):
    def build(t, a, args, kernel):
        x, y = args
        return [t.assign(a, ast.Compare(left=t.R(x), ops=[node()], comparators=[t.R(y)]))]
    return build


def _unary(node, symbol=None):
    def build(t, a, args, kernel):
        (x,) = args
        expr = ast.UnaryOp(op=node(), operand=t.R(x))
        if symbol is None:
            return [t.assign(a, expr)]
        return _checked(t, a, expr, symbol, (x,), "above")  # only -INT64_MIN overflows
    return build


def _int_abs(checked: bool):
    def build(t, a, args, kernel):
        (x,) = args
        negative = ast.Compare(left=t.R(x), ops=[ast.Lt()], comparators=[ast.Constant(0)])
        expr = ast.IfExp(test=negative, body=ast.UnaryOp(op=ast.USub(), operand=t.R(x)),
                         orelse=t.R(x))
        return _checked(t, a, expr, "abs", (x,), "above" if checked else None)
    return build


def _none_result(t, a):
    """`rA = None` for operators returning None, only if something reads rA."""
    return [t.assign(a, ast.Constant(None))] if t.is_read(a) else []


def _getitem(t, a, args, kernel):
    x, i = args
    return [t.assign(a, ast.Subscript(value=t.R(x), slice=t.R(i), ctx=ast.Load()))]


def _setitem(t, a, args, kernel):
    x, i, v = args
    target = ast.Subscript(value=t.R(x), slice=t.R(i), ctx=ast.Store())
    return [ast.Assign(targets=[target], value=t.R(v))] + _none_result(t, a)


def _len(t, a, args, kernel):
    return [t.assign(a, call("_len", [t.R(args[0])]))]


def _method(attr: str, returns_none: bool):
    """`R[x].attr(R[y]...)` for a method of a builtin type (list.append, dict.get)."""
    def build(t, a, args, kernel):
        fn = ast.Attribute(value=t.R(args[0]), attr=attr, ctx=ast.Load())
        value = ast.Call(func=fn, args=[t.R(r) for r in args[1:]], keywords=[])
        if returns_none:
            return [ast.Expr(value=value)] + _none_result(t, a)
        return [t.assign(a, value)]
    return build


def _list_pop(t, a, args, kernel):
    """`xs.pop()` for the constant index -1 (CPython's fast path), else `xs.pop(i)`."""
    xs, i = args
    index = [] if t.consts.get(i) == -1 and type(t.consts.get(i)) is int else [t.R(i)]
    fn = ast.Attribute(value=t.R(xs), attr="pop", ctx=ast.Load())
    return [t.assign(a, ast.Call(func=fn, args=index, keywords=[]))]


def _contains(t, a, args, kernel):
    container, x = args
    return [t.assign(a, ast.Compare(left=t.R(x), ops=[ast.In()], comparators=[t.R(container)]))]


def _to_float(t, a, args, kernel):
    return [t.assign(a, call("_float", [t.R(args[0])]))]


INLINE = {
    "int.add": _binop(ast.Add, "+", _add_side, _undo_add),
    "int.sub": _binop(ast.Sub, "-", _sub_side, _undo_sub),
    "int.mul": _binop(ast.Mult, "*", _mul_side, _undo_mul),
    "int.floordiv": _binop(ast.FloorDiv, "//", lambda t, x, y: "above"),  # MIN // -1
    "int.add_nowrap": _binop(ast.Add), "int.sub_nowrap": _binop(ast.Sub),
    "int.mul_nowrap": _binop(ast.Mult), "int.floordiv_nowrap": _binop(ast.FloorDiv),
    "int.neg_nowrap": _unary(ast.USub), "int.abs_nowrap": _int_abs(False),
    "int.pow": _guarded(ast.Pow, "**", 64), "int.lshift": _guarded(ast.LShift, "<<", 63),
    "int.mod": _binop(ast.Mod), "int.mod_natural": _binop(ast.Mod),
    "int.truediv": _binop(ast.Div),
    "int.and": _binop(ast.BitAnd), "int.or": _binop(ast.BitOr), "int.xor": _binop(ast.BitXor),
    "int.rshift": _binop(ast.RShift), "int.neg": _unary(ast.USub, "-"), "int.abs": _int_abs(True),
    "int.invert": _unary(ast.Invert), "int.to_float": _to_float,
    "float.add": _binop(ast.Add), "float.sub": _binop(ast.Sub), "float.mul": _binop(ast.Mult),
    "float.truediv": _binop(ast.Div), "float.floordiv": _binop(ast.FloorDiv),
    "float.mod": _binop(ast.Mod), "float.neg": _unary(ast.USub),
    "bool.not": _unary(ast.Not), "bool.and": _binop(ast.BitAnd), "bool.or": _binop(ast.BitOr),
    "bool.xor": _binop(ast.BitXor),
    "list.getitem": _getitem, "str.getitem": _getitem, "dict.getitem": _getitem,
    "tuple.getitem": _getitem, "list.setitem": _setitem, "dict.setitem": _setitem,
    "list.len": _len, "str.len": _len, "dict.len": _len, "tuple.len": _len,
    "list.append": _method("append", True), "list.pop": _list_pop,
    "dict.get": _method("get", False),
    "list.contains": _contains, "str.contains": _contains, "dict.contains": _contains,
    "any.contains": _contains,
    "obj.is": _compare(ast.Is), "obj.isnot": _compare(ast.IsNot),
}
"""Operator name -> template. Names not listed here are called through their kernel."""

for _n, _node in [("eq", ast.Eq), ("ne", ast.NotEq), ("lt", ast.Lt), ("le", ast.LtE),
                  ("gt", ast.Gt), ("ge", ast.GtE)]:
    for _recv in ("int", "float", "str", "any"):
        INLINE[f"{_recv}.{_n}"] = _compare(_node)
    INLINE[f"int.{_n}_float"] = _compare(_node)
    INLINE[f"float.{_n}_int"] = _compare(_node)
INLINE["bool.eq"] = _compare(ast.Eq)
INLINE["bool.ne"] = _compare(ast.NotEq)
