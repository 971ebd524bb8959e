"""Translate verified bytecode into Python functions, through the `ast` module.

Each opcode maps to a fixed statement template; registers become locals
r0..rN; int/float/str/bool/None constants become literals, and every other
constant, kernel, function and helper is a generated name in the program's
globals dict, whose `__builtins__` is empty. No name, attribute or text from
the artifact enters the tree (class fields are `f0`, `f1`, ...), and the tree
is compiled — never source text, never eval/exec. Statements carry the
script's line numbers and the code is compiled with the script's file name,
so Python tracebacks point at the script.

Structured control flow becomes Python's own if/while/for/try/break/continue/
return, so `finally` with `break` or `return` inside works natively. The
hottest scalar operators are inlined (see inline.py); every other operator is
a call to its kernel. Generated functions keep all state in locals: one
loaded program is safe to call from many threads at once.
"""

from __future__ import annotations

import ast
import bisect
import types
import warnings

from ember.mobile.fold import fold_function
from ember.mobile.inline import INLINE, assign, call, name
from ember.mobile.opcodes import Op
from ember.mobile.tree import For, If, Ins, Try, While, reads_writes, walk

_SCALARS = (int, float, complex, str, bool, type(None))


class FunctionTranslator:
    """Builds the ast.FunctionDef of one verified function.

    `env` names the program-wide values (kernels, tensors, classes, type checks) in the
    shared globals dict; see runtime.ProgramEnv.
    """

    def __init__(self, program, index: int, tree: list, env):
        self.p = program
        self.index = index
        self.f = program.functions[index]
        self.tree = tree
        self.env = env
        self.first_line = min((ln for _, _, ln in self.f.lines if ln > 0), default=1)
        self.line = self.first_line
        self.line_pcs = [e[0] for e in self.f.lines]  # bisect without a key function
        self.site_pcs = [e[0] for e in self.f.site_pcs]
        self.read_counts = self._read_counts()
        self.consts, self.const_names = self._constant_registers()

    # -- analysis ------------------------------------------------------------------------------
    def _read_counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for n in walk(self.tree):
            for r in reads_writes(n)[0]:
                counts[r] = counts.get(r, 0) + 1
        return counts

    def _constant_registers(self) -> tuple[dict, dict]:
        """Registers written once, by a LOADK: the uses of a scalar's become literals
        ({reg: value}), those of any other constant (a tensor, an object, a fused group)
        the global name holding it ({reg: name}). A frozen model loads each weight into a
        register once at the top of its function: as names, its hundreds of weights are
        not locals live across the whole body (the fold's liveness is linear again).

        Sound because definite assignment guarantees every read follows that one write."""
        writes: dict[int, int] = {}
        loadk = {}
        for n in walk(self.tree):
            for r in reads_writes(n)[1]:
                writes[r] = writes.get(r, 0) + 1
            if isinstance(n, Ins) and n.op is Op.LOADK:
                loadk[n.args[0]] = n.args[1]
        scalars, names = {}, {}
        for r, k in loadk.items():
            if writes[r] != 1 or r < self.f.nparams:
                continue
            c = self.f.consts[k]
            if type(c) in _SCALARS:
                scalars[r] = c
            else:
                names[r] = self.env.constant(self.index, k, c)
        return scalars, names

    def is_read(self, r: int) -> bool:
        """Whether any instruction reads register r."""
        return r in self.read_counts

    def take_test(self, stmts: list, reg: int):
        """The expression for a branch on `reg`: the value of the statement just before,
        when it assigns reg and nothing else reads reg (saves a store and a load)."""
        if stmts and self.read_counts.get(reg) == 1 and reg not in self.consts and \
                reg not in self.const_names:
            last = stmts[-1]
            if isinstance(last, ast.Assign) and len(last.targets) == 1 and \
                    isinstance(last.targets[0], ast.Name) and last.targets[0].id == f"r{reg}":
                stmts.pop()
                return last.value
        return self.R(reg)

    # -- expressions ---------------------------------------------------------------------------
    def R(self, r: int):
        """The expression reading register r (a literal for constant registers)."""
        if r in self.consts:
            return ast.Constant(self.consts[r])
        return name(self.const_names.get(r) or f"r{r}")

    def assign(self, r: int, value):
        """The statement `r<r> = value`."""
        return assign(f"r{r}", value)

    # -- function ------------------------------------------------------------------------------
    def build(self) -> ast.FunctionDef:
        """The function definition `def _fn<index>(r0, ..., r<nparams-1>): ...`."""
        body = fold_function(self.block(self.tree))
        params = [ast.arg(arg=f"r{i}") for i in range(self.f.nparams)]
        args = ast.arguments(posonlyargs=[], args=params, vararg=None, kwonlyargs=[],
                             kw_defaults=[], kwarg=None, defaults=[])
        return ast.FunctionDef(name=f"_fn{self.index}", args=args, body=body,
                               decorator_list=[], returns=None, lineno=self.first_line,
                               col_offset=0)

    def block(self, nodes) -> list:
        out = []
        f = self.f
        for n in nodes:
            i = bisect.bisect_right(self.line_pcs, n.pc) - 1  # f.location(n.pc)
            line = f.lines[i][2] if i >= 0 else 0
            self.line = line if line > 0 else self.line
            i = bisect.bisect_right(self.site_pcs, n.pc) - 1  # f.site(n.pc)
            site = f.site_pcs[i][1] if i >= 0 else 0
            stmts = self.node(n, out)
            for s in stmts:
                s.lineno = self.line
                s.col_offset = site
            out.extend(stmts)
        return out or [ast.Pass(lineno=self.line)]

    def node(self, n, before) -> list:
        if isinstance(n, Ins):
            if n.op is Op.LOADK and (n.args[0] in self.consts or
                                     n.args[0] in self.const_names):
                return []
            return _INS[n.op](self, *n.args)
        if isinstance(n, If):
            test = self.take_test(before, n.cond)
            orelse = self.block(n.orelse) if n.orelse else []
            return [ast.If(test=test, body=self.block(n.then), orelse=orelse)]
        if isinstance(n, For):
            return [ast.For(target=name(f"r{n.iv}", True), iter=self.range_call(n),
                            body=self.block(n.body), orelse=self.else_block(n.orelse))]
        if isinstance(n, While):
            return self.while_(n)
        return self.try_(n)

    def else_block(self, nodes):
        return self.block(nodes) if nodes else []

    def range_call(self, n: For):
        lo, step = self.consts.get(n.lo), self.consts.get(n.step)
        if step == 1 and type(step) is int:
            if lo == 0 and type(lo) is int:
                return call("_range", [self.R(n.hi)])
            return call("_range", [self.R(n.lo), self.R(n.hi)])
        return call("_range", [self.R(n.lo), self.R(n.hi), self.R(n.step)])

    def while_(self, n: While) -> list:
        cond = [s for s in self.block(n.cond_code) if not isinstance(s, ast.Pass)]
        test = self.take_test(cond, n.test)
        body = self.block(n.body)
        orelse = self.else_block(n.orelse)
        if not cond:
            # The condition is one expression: Python's own while/else has our semantics.
            return [ast.While(test=test, body=body, orelse=orelse)]
        leave = [ast.Break()]
        flag = f"_else{n.pc}"
        if n.orelse:
            leave.insert(0, assign(flag, ast.Constant(True)))
        exit_ = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test), body=leave, orelse=[])
        loop = ast.While(test=ast.Constant(True), body=cond + [exit_] + body, orelse=[])
        if not n.orelse:
            return [loop]
        return [assign(flag, ast.Constant(False)), loop,
                ast.If(test=name(flag), body=orelse, orelse=[])]

    def try_(self, n: Try) -> list:
        handlers = []
        for h in n.handlers:
            exc = self.env.exception_tuple(h.classes)
            bind = self.is_read(h.reg)
            body = ([self.assign(h.reg, name("_exc"))] if bind else []) + self.block(h.body)
            handlers.append(ast.ExceptHandler(type=name(exc), name="_exc" if bind else None,
                                              body=body))
        # A FINALLY with no instructions (`finally: pass`) is still a finally clause: a
        # Try needs handlers or a non-empty finalbody.
        final = self.block(n.final) if n.final is not None else []
        return [ast.Try(body=self.block(n.body), handlers=handlers,
                        orelse=self.else_block(n.orelse), finalbody=final)]

    # -- instructions --------------------------------------------------------------------------
    def regs(self, rs):
        return [self.R(r) for r in rs]

    def i_move(self, a, b):
        return [self.assign(a, self.R(b))]

    def i_loadk(self, a, k):
        c = self.f.consts[k]
        if type(c) in _SCALARS:
            return [self.assign(a, ast.Constant(c))]
        return [self.assign(a, name(self.env.constant(self.index, k, c)))]

    def i_kcall(self, a, f, args):
        kernel = self.env.kernel(f)
        inline = INLINE.get(self.p.operators[f])
        if inline is not None:
            return inline(self, a, args, kernel)
        return [self.assign(a, call(kernel, self.regs(args)))]

    def i_fused(self, a, k, args):
        group = self.env.constant(self.index, k, self.f.consts[k])
        return [self.assign(a, call(group, self.regs(args)))]

    def i_call(self, a, fn, args):
        return [self.assign(a, call(f"_fn{fn}", self.regs(args)))]

    def i_closure(self, a, fn, args):
        return [self.assign(a, call("_partial", [name(f"_fn{fn}")] + self.regs(args)))]

    def i_calli(self, a, b, args):
        return [self.assign(a, ast.Call(func=self.R(b), args=self.regs(args), keywords=[]))]

    def i_tuple(self, a, args):
        return [self.assign(a, ast.Tuple(elts=self.regs(args), ctx=ast.Load()))]

    def i_tget(self, a, b, i):
        return [self.assign(a, ast.Subscript(value=self.R(b), slice=ast.Constant(i),
                                             ctx=ast.Load()))]

    def i_list(self, a, args):
        return [self.assign(a, ast.List(elts=self.regs(args), ctx=ast.Load()))]

    def i_dict(self, a, pairs):
        return [self.assign(a, ast.Dict(keys=self.regs(pairs[0::2]),
                                        values=self.regs(pairs[1::2])))]

    def i_newobj(self, a, c, args):
        return [self.assign(a, call(f"_cls{c}", self.regs(args)))]

    def i_getf(self, a, b, i):
        return [self.assign(a, ast.Attribute(value=self.R(b), attr=f"f{i}", ctx=ast.Load()))]

    def i_setf(self, a, i, b):
        target = ast.Attribute(value=self.R(a), attr=f"f{i}", ctx=ast.Store())
        return [ast.Assign(targets=[target], value=self.R(b))]

    def i_isinst(self, a, b, k):
        helper = self.env.type_helper("_isinst", self.f.consts[k][1])
        return [self.assign(a, call(helper, [self.R(b)]))]

    def i_narrow(self, a, b, k):
        helper = self.env.type_helper("_narrow", self.f.consts[k][1])
        return [self.assign(a, call(helper, [self.R(b)]))]

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
        return [ast.Raise(exc=call("_unreachable", []), cause=None)]


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
    Op.UNREACHABLE: FunctionTranslator.i_unreachable, Op.FUSED: FunctionTranslator.i_fused,
}
"""Statement template per straight-line opcode (structured ones are FunctionTranslator.node)."""


def _fix_locations(node, line, col=0):
    """Give every node a one-line location; children inherit their statement's line and
    column. The column is not a column: it is the instruction's inlined call site
    (Function.site), which the call boundary reads back for the traceback's frames.
    compile() takes a missing end position as the start: only lineno and col_offset are
    set. A hand-rolled walk (ast.iter_child_nodes costs 2/3 of a big model's compile)."""
    if node._attributes:
        ln = getattr(node, "lineno", None)
        if ln:
            line = ln
        else:
            node.lineno = line
        c = getattr(node, "col_offset", None)
        if c is None:
            node.col_offset = col
        else:
            col = c
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for x in value:
                if isinstance(x, ast.AST):
                    _fix_locations(x, line, col)
        elif isinstance(value, ast.AST):
            _fix_locations(value, line, col)


def compile_function(fdef: ast.FunctionDef, filename: str, fname: str, globals_: dict):
    """Compile one translated function (an ast tree, never text) into a function object
    whose globals are `globals_` and whose name (for tracebacks) is `fname`."""
    module = ast.Module(body=[fdef], type_ignores=[])
    _fix_locations(fdef, fdef.lineno)
    with warnings.catch_warnings():
        # CPython warns about translated code such as a constant called or subscripted
        # (a corrupt artifact's CALLI on a constant): not the user's source, and the
        # call raises TypeError when it runs.
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(module, filename, "exec", dont_inherit=True, optimize=0)
    fcode = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    fcode = fcode.replace(co_name=fname, co_qualname=fname)
    return types.FunctionType(fcode, globals_, fname)
