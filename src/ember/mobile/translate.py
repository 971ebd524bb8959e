"""Translate verified bytecode into Python functions, through the `ast` module.

Each opcode maps to a fixed statement template; registers become locals
r0..rN; int/float/str/bool/None constants become literals, and every other
constant, kernel, function and helper is a name in the program's globals
dict, whose `__builtins__` is empty. No name, attribute or text from the
artifact enters the tree (class fields are `f0`, `f1`, ...), and the tree is
compiled — never source text, never eval/exec. Statements carry the script's
line numbers and the code is compiled with the script's file name, so Python
tracebacks point at the script.

The hottest scalar operators are inlined (`r2 = r0 + r1` plus the int64
overflow check); every other operator is a call to its kernel.
"""

from __future__ import annotations

import ast
import types

from ember.mobile.opcodes import Op
from ember.mobile.verify import For, If, Ins, Try, While
from ember.ops.int64 import INT64_MAX, INT64_MIN

_SCALARS = (int, float, str, bool, type(None))


def _name(id_, store=False):
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _call(fn: str, args):
    return ast.Call(func=_name(fn), args=list(args), keywords=[])


class FunctionTranslator:
    """Builds the ast.FunctionDef of one verified function."""

    def __init__(self, program, index: int, tree, env):
        self.p = program
        self.index = index
        self.f = program.functions[index]
        self.tree = tree
        self.env = env
        self.line_of = {pc: line for pc, _, line in self.f.lines if line > 0}
        self.first_line = min(self.line_of.values(), default=1)
        self.line = self.first_line
        self.consts = self._constant_registers()
        self.read_counts = self._read_counts()
        self.read_regs = set(self.read_counts)

    # -- analysis ------------------------------------------------------------------------------
    def _walk(self, nodes):
        for n in nodes:
            yield n
            for attr in ("then", "orelse", "cond_code", "body", "final"):
                sub = getattr(n, attr, None)
                if sub:
                    yield from self._walk(sub)
            for h in getattr(n, "handlers", ()) or ():
                yield h
                yield from self._walk(h.body)

    def _constant_registers(self) -> dict:
        """Registers written once, by a LOADK of a scalar: their uses become literals."""
        writes, loadk = {}, {}
        for n in self._walk(self.tree):
            for r in _written(n):
                writes[r] = writes.get(r, 0) + 1
            if isinstance(n, Ins) and n.op is Op.LOADK:
                c = self.f.consts[n.args[1]]
                if type(c) in _SCALARS:
                    loadk[n.args[0]] = c
        return {r: c for r, c in loadk.items() if writes.get(r) == 1 and r >= self.f.nparams}

    def _read_counts(self) -> dict:
        from ember.mobile.verify import _reads_writes
        counts: dict = {}

        def add(r):
            counts[r] = counts.get(r, 0) + 1
        for n in self._walk(self.tree):
            if isinstance(n, Ins):
                for r in _reads_writes(n)[0]:
                    add(r)
            elif isinstance(n, If):
                add(n.cond)
            elif isinstance(n, While):
                add(n.test)
            elif isinstance(n, For):
                for r in (n.lo, n.hi, n.step):
                    add(r)
        return counts

    def take_test(self, stmts: list, reg: int):
        """The expression for a branch on `reg`: the value of the statement just before,
        when it assigns reg and nothing else reads reg (saves a store and a load)."""
        if stmts and self.read_counts.get(reg) == 1 and reg not in self.consts:
            last = stmts[-1]
            if isinstance(last, ast.Assign) and len(last.targets) == 1 and \
                    isinstance(last.targets[0], ast.Name) and last.targets[0].id == f"r{reg}":
                stmts.pop()
                return last.value
        return self.R(reg)

    # -- expressions ---------------------------------------------------------------------------
    def R(self, r: int):
        if r in self.consts:
            return ast.Constant(self.consts[r])
        return _name(f"r{r}")

    def W(self, r: int):
        return _name(f"r{r}", store=True)

    def assign(self, r: int, value):
        return ast.Assign(targets=[self.W(r)], value=value)

    # -- function ------------------------------------------------------------------------------
    def build(self) -> ast.FunctionDef:
        body = self.block(self.tree)
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=f"r{i}")
                                                   for i in range(self.f.nparams)],
                             vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                             defaults=[])
        fn = ast.FunctionDef(name=f"_fn{self.index}", args=args, body=body, decorator_list=[],
                             returns=None, lineno=self.first_line, col_offset=0)
        return fn

    def block(self, nodes) -> list:
        out = []
        for n in nodes:
            self.line = self.line_of.get(n.pc, self.line)
            stmts = self.node(n, out)
            for s in stmts:
                s.lineno = self.line_of.get(n.pc, self.line)
                s.col_offset = 0
            out.extend(stmts)
        return out or [ast.Pass(lineno=self.line, col_offset=0)]

    def node(self, n, before) -> list:
        if isinstance(n, Ins):
            if n.op is Op.LOADK and n.args[0] in self.consts:
                return []
            return _INS[n.op](self, *n.args)
        if isinstance(n, If):
            test = self.take_test(before, n.cond)
            orelse = self.block(n.orelse) if n.orelse else []
            return [ast.If(test=test, body=self.block(n.then), orelse=orelse)]
        if isinstance(n, For):
            return [ast.For(target=self.W(n.iv), iter=self.range_call(n), body=self.block(n.body),
                            orelse=self.block(n.orelse) if n.orelse else [])]
        if isinstance(n, While):
            return self.while_(n)
        return self.try_(n)

    def range_call(self, n: For):
        lo, step = self.consts.get(n.lo), self.consts.get(n.step)
        if step == 1 and type(step) is int:
            if lo == 0 and type(lo) is int:
                return _call("_range", [self.R(n.hi)])
            return _call("_range", [self.R(n.lo), self.R(n.hi)])
        return _call("_range", [self.R(n.lo), self.R(n.hi), self.R(n.step)])

    def while_(self, n: While) -> list:
        cond = [s for s in (self.block(n.cond_code) if n.cond_code else [])
                if not isinstance(s, ast.Pass)]
        test = self.take_test(cond, n.test)
        body = self.block(n.body)
        orelse = self.block(n.orelse) if n.orelse else []
        if not cond:
            # The condition is one expression: Python's own while/else has our semantics.
            return [ast.While(test=test, body=body, orelse=orelse)]
        if not n.orelse:
            leave = [ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test),
                            body=[ast.Break()], orelse=[])]
            return [ast.While(test=ast.Constant(True), body=cond + leave + body, orelse=[])]
        flag = f"_else{n.pc}"
        leave = [ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test),
                        body=[ast.Assign(targets=[_name(flag, True)],
                                         value=ast.Constant(True)), ast.Break()], orelse=[])]
        return [ast.Assign(targets=[_name(flag, True)], value=ast.Constant(False)),
                ast.While(test=ast.Constant(True), body=cond + leave + body, orelse=[]),
                ast.If(test=_name(flag), body=orelse, orelse=[])]

    def try_(self, n: Try) -> list:
        handlers = []
        for h in n.handlers:
            exc = self.env.exception_tuple(h.classes)
            body = [self.assign(h.reg, _name("_exc"))] + self.block(h.body)
            handlers.append(ast.ExceptHandler(type=_name(exc), name="_exc", body=body))
        return [ast.Try(body=self.block(n.body), handlers=handlers,
                        orelse=self.block(n.orelse) if n.orelse else [],
                        finalbody=self.block(n.final) if n.final else [])]

    # -- instructions --------------------------------------------------------------------------
    def i_move(self, a, b):
        return [self.assign(a, self.R(b))]

    def i_loadk(self, a, k):
        c = self.f.consts[k]
        if type(c) in _SCALARS:
            return [self.assign(a, ast.Constant(c))]
        return [self.assign(a, _name(self.env.constant(self.index, k, c)))]

    def i_kcall(self, a, f, args):
        name = self.p.operators[f]
        inline = INLINE.get(name)
        if inline is not None:
            return inline(self, a, *args)
        return [self.assign(a, _call(self.env.kernel(f), [self.R(r) for r in args]))]

    def i_call(self, a, fn, args):
        return [self.assign(a, _call(f"_fn{fn}", [self.R(r) for r in args]))]

    def i_closure(self, a, fn, args):
        return [self.assign(a, _call("_partial", [_name(f"_fn{fn}")] + [self.R(r) for r in args]))]

    def i_calli(self, a, b, args):
        return [self.assign(a, ast.Call(func=self.R(b), args=[self.R(r) for r in args],
                                        keywords=[]))]

    def i_tuple(self, a, args):
        return [self.assign(a, ast.Tuple(elts=[self.R(r) for r in args], ctx=ast.Load()))]

    def i_tget(self, a, b, i):
        return [self.assign(a, ast.Subscript(value=self.R(b), slice=ast.Constant(i),
                                             ctx=ast.Load()))]

    def i_list(self, a, args):
        return [self.assign(a, ast.List(elts=[self.R(r) for r in args], ctx=ast.Load()))]

    def i_dict(self, a, pairs):
        ks, vs = pairs[0::2], pairs[1::2]
        return [self.assign(a, ast.Dict(keys=[self.R(r) for r in ks],
                                        values=[self.R(r) for r in vs]))]

    def i_newobj(self, a, c, args):
        return [self.assign(a, _call(f"_cls{c}", [self.R(r) for r in args]))]

    def i_getf(self, a, b, i):
        return [self.assign(a, ast.Attribute(value=self.R(b), attr=f"f{i}", ctx=ast.Load()))]

    def i_setf(self, a, i, b):
        return [ast.Assign(targets=[ast.Attribute(value=self.R(a), attr=f"f{i}",
                                                  ctx=ast.Store())], value=self.R(b))]

    def i_isinst(self, a, b, k):
        return [self.assign(a, _call(self.env.type_helper("_isinst", self.f.consts[k][1]),
                                     [self.R(b)]))]

    def i_narrow(self, a, b, k):
        return [self.assign(a, _call(self.env.type_helper("_narrow", self.f.consts[k][1]),
                                     [self.R(b)]))]

    def i_free(self, a):
        return [self.assign(a, ast.Constant(None))]

    def i_return(self, a):
        return [ast.Return(value=self.R(a))]

    def i_raise(self, a):
        return [ast.Raise(exc=self.R(a), cause=None)]

    def i_break(self):
        return [ast.Break()]

    def i_continue(self):
        return [ast.Continue()]

    def i_unreachable(self):
        return [ast.Raise(exc=_call("_unreachable", []), cause=None)]


def _written(n):
    if isinstance(n, Ins):
        from ember.mobile.verify import _reads_writes
        return _reads_writes(n)[1]
    if isinstance(n, For):
        return [n.iv]
    if hasattr(n, "reg"):
        return [n.reg]
    return []


_INS = {
    Op.MOVE: FunctionTranslator.i_move, Op.LOADK: FunctionTranslator.i_loadk,
    Op.KCALL: FunctionTranslator.i_kcall, Op.CALL: FunctionTranslator.i_call,
    Op.CLOSURE: FunctionTranslator.i_closure, Op.CALLI: FunctionTranslator.i_calli,
    Op.TUPLE: FunctionTranslator.i_tuple, Op.TGET: FunctionTranslator.i_tget,
    Op.LIST: FunctionTranslator.i_list, Op.DICT: FunctionTranslator.i_dict,
    Op.NEWOBJ: FunctionTranslator.i_newobj, Op.GETF: FunctionTranslator.i_getf,
    Op.SETF: FunctionTranslator.i_setf, Op.ISINST: FunctionTranslator.i_isinst,
    Op.NARROW: FunctionTranslator.i_narrow, Op.FREE: FunctionTranslator.i_free,
    Op.RETURN: FunctionTranslator.i_return, Op.RAISE: FunctionTranslator.i_raise,
    Op.BREAK: FunctionTranslator.i_break, Op.CONTINUE: FunctionTranslator.i_continue,
    Op.UNREACHABLE: FunctionTranslator.i_unreachable,
}

# ----------------------------------------------------------------------------- inlined operators


def _in_range(expr):
    return ast.Compare(left=ast.Constant(INT64_MIN), ops=[ast.LtE(), ast.LtE()],
                       comparators=[expr, ast.Constant(INT64_MAX)])


def _checked(t, a, expr, symbol, operands):
    """`rA = expr` with the int64 overflow check (a temp if rA is also an operand)."""
    target = "_t" if a in operands else f"r{a}"
    err = ast.Raise(exc=_call("_ovf", [ast.Constant(symbol)] + [t.R(r) for r in operands]
                              + ([ast.Constant(None)] if len(operands) == 1 else [])),
                    cause=None)
    stmts = [ast.Assign(targets=[_name(target, True)], value=expr),
             ast.If(test=ast.UnaryOp(op=ast.Not(), operand=_in_range(_name(target))),
                    body=[err], orelse=[])]
    if target == "_t":
        stmts.append(t.assign(a, _name("_t")))
    return stmts


def _binop(node, symbol=None):
    def build(t, a, x, y):
        expr = ast.BinOp(left=t.R(x), op=node(), right=t.R(y))
        if symbol is None:
            return [t.assign(a, expr)]
        return _checked(t, a, expr, symbol, (x, y))
    return build


def _compare(node):
    def build(t, a, x, y):
        return [t.assign(a, ast.Compare(left=t.R(x), ops=[node()], comparators=[t.R(y)]))]
    return build


def _unary(node, symbol=None):
    def build(t, a, x):
        expr = ast.UnaryOp(op=node(), operand=t.R(x))
        if symbol is None:
            return [t.assign(a, expr)]
        return _checked(t, a, expr, symbol, (x,))
    return build


def _getitem(t, a, x, i):
    return [t.assign(a, ast.Subscript(value=t.R(x), slice=t.R(i), ctx=ast.Load()))]


def _setitem(t, a, x, i, v):
    stmts = [ast.Assign(targets=[ast.Subscript(value=t.R(x), slice=t.R(i), ctx=ast.Store())],
                        value=t.R(v))]
    return stmts + _none_result(t, a)


def _none_result(t, a):
    return [t.assign(a, ast.Constant(None))] if a in t.read_regs else []


def _len(t, a, x):
    return [t.assign(a, _call("_len", [t.R(x)]))]


def _append(t, a, xs, v):
    call = ast.Call(func=ast.Attribute(value=t.R(xs), attr="append", ctx=ast.Load()),
                    args=[t.R(v)], keywords=[])
    return [ast.Expr(value=call)] + _none_result(t, a)


def _contains(t, a, container, x):
    return [t.assign(a, ast.Compare(left=t.R(x), ops=[ast.In()], comparators=[t.R(container)]))]


def _to_float(t, a, x):
    return [t.assign(a, _call("_float", [t.R(x)]))]


def _dict_get(t, a, d, k, default):
    call = ast.Call(func=ast.Attribute(value=t.R(d), attr="get", ctx=ast.Load()),
                    args=[t.R(k), t.R(default)], keywords=[])
    return [t.assign(a, call)]


INLINE = {
    "int.add": _binop(ast.Add, "+"), "int.sub": _binop(ast.Sub, "-"),
    "int.mul": _binop(ast.Mult, "*"), "int.floordiv": _binop(ast.FloorDiv, "//"),
    "int.mod": _binop(ast.Mod), "int.truediv": _binop(ast.Div),
    "int.and": _binop(ast.BitAnd), "int.or": _binop(ast.BitOr), "int.xor": _binop(ast.BitXor),
    "int.rshift": _binop(ast.RShift), "int.neg": _unary(ast.USub, "-"),
    "int.invert": _unary(ast.Invert),
    "float.add": _binop(ast.Add), "float.sub": _binop(ast.Sub), "float.mul": _binop(ast.Mult),
    "float.truediv": _binop(ast.Div), "float.floordiv": _binop(ast.FloorDiv),
    "float.mod": _binop(ast.Mod), "float.neg": _unary(ast.USub),
    "bool.not": _unary(ast.Not), "bool.and": _binop(ast.BitAnd), "bool.or": _binop(ast.BitOr),
    "bool.xor": _binop(ast.BitXor),
    "list.getitem": _getitem, "str.getitem": _getitem, "dict.getitem": _getitem,
    "tuple.getitem": _getitem, "list.setitem": _setitem, "dict.setitem": _setitem,
    "list.len": _len, "str.len": _len, "dict.len": _len, "tuple.len": _len,
    "list.append": _append, "list.contains": _contains, "str.contains": _contains,
    "dict.contains": _contains, "any.contains": _contains, "int.to_float": _to_float,
    "dict.get": _dict_get,
    "obj.is": _compare(ast.Is), "obj.isnot": _compare(ast.IsNot),
}
for _n, _node in [("eq", ast.Eq), ("ne", ast.NotEq), ("lt", ast.Lt), ("le", ast.LtE),
                  ("gt", ast.Gt), ("ge", ast.GtE)]:
    for _recv in ("int", "float", "str", "bool", "any"):
        INLINE[f"{_recv}.{_n}"] = _compare(_node)
    INLINE[f"int.{_n}_float"] = _compare(_node)
    INLINE[f"float.{_n}_int"] = _compare(_node)
for _k in [k for k in INLINE if k.startswith("bool.") and k[5:] in ("lt", "le", "gt", "ge")]:
    del INLINE[_k]


def _fix_locations(node, line):
    """Give every node a valid one-line location (children inherit their statement's line)."""
    stack = [(node, line)]
    while stack:
        n, parent_line = stack.pop()
        if "lineno" in n._attributes:
            ln = getattr(n, "lineno", None) or parent_line
            n.lineno = n.end_lineno = ln
            n.col_offset = n.end_col_offset = 0
            parent_line = ln
        stack.extend((c, parent_line) for c in ast.iter_child_nodes(n))


def compile_function(fdef: ast.FunctionDef, filename: str, name: str, globals_: dict):
    """Compile one translated function (an ast tree, never text) into a function object."""
    module = ast.Module(body=[fdef], type_ignores=[])
    _fix_locations(fdef, fdef.lineno)
    code = compile(module, filename, "exec", dont_inherit=True, optimize=0)
    fcode = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    fcode = fcode.replace(co_name=name, co_qualname=name)
    return types.FunctionType(fcode, globals_, name)
