"""Simple statements: assignments (clamped), augmented assignments, tuple unpacking,
list and dict mutation, raise, assert, and the exits (return, break, continue) that
the control-flow generator places at the end of a conditional block."""

from __future__ import annotations

import ast

from ember.fuzz.astutil import call, index, method, name, slice_
from ember.fuzz.gtypes import BOOL, FLOAT, INT, INT_BOUND, STR, STR_BOUND, kind, native
from ember.fuzz.scope import E

EXCEPTIONS = ("ValueError", "IndexError", "KeyError", "ZeroDivisionError", "RuntimeError",
              "TypeError", "AssertionError", "LookupError", "ArithmeticError")
"""Builtin exception classes generated code raises and catches."""


def store(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Store())


def assign(target, value) -> ast.Assign:
    t = store(target) if isinstance(target, str) else target
    return ast.Assign(targets=[t], value=value, lineno=0)


def if_(test, body, orelse=()) -> ast.If:
    return ast.If(test=test, body=list(body), orelse=list(orelse))


class SimpleStmts:
    def simple_prods(self):
        return [(5, self.assign_stmt), (3, self.aug_stmt), (4, self.mutate_stmt),
                (1, self.unpack_stmt), (1, self.raise_stmt), (1, self.assert_stmt)]

    def mutable(self, t=None):
        vs = [v for v in self.ctx.visible() if v.mutable and kind(v.type) != "fn"]
        return [v for v in vs if t is None or v.type == t]

    def assign_stmt(self):
        vs = self.mutable()
        if not vs:
            return None
        v = self.rng.choice(vs)
        if kind(v.type) in ("list", "dict") and v.type in self.ctx.frozen:
            return None
        return [assign(v.name, self.x.stored(v.type, self.edepth()))]

    def aug_stmt(self):
        vs = [v for v in self.mutable() if kind(v.type) in (INT, FLOAT, STR, "list")
              and v.type not in self.ctx.frozen]
        if not vs:
            return None
        v = self.rng.choice(vs)
        k = kind(v.type)
        if k == INT:
            return self.aug_int(v)
        if k == FLOAT:
            op = self.rng.choice((ast.Add, ast.Sub, ast.Mult))
            return [ast.AugAssign(target=store(v.name), op=op(), value=self.x.num(1).node)]
        if k == STR:
            e = self.x.expr(STR, 1)
            return [ast.AugAssign(target=store(v.name), op=ast.Add(), value=e.node),
                    self.glued(assign(v.name, slice_(name(v.name), hi=ast.Constant(STR_BOUND))))]
        e = self.x.expr(v.type, 1)
        return [ast.AugAssign(target=store(v.name), op=ast.Add(),
                              value=slice_(e.node, hi=ast.Constant(3)))]

    def aug_int(self, v):
        op = self.rng.choice((ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.BitXor))
        if op in (ast.FloorDiv, ast.Mod):
            return [ast.AugAssign(target=store(v.name), op=op(), value=self.x.divisor(1).node)]
        e = self.x.expr(INT, 1)
        e = self.x.fit(e, 1 << 20 if op is ast.Mult else INT_BOUND)
        stmt = ast.AugAssign(target=store(v.name), op=op(), value=e.node)
        clamp = self.x.clamp(E(name(v.name), INT_BOUND * max(e.b, 1) + INT_BOUND), INT)
        return [stmt, self.glued(assign(v.name, clamp))]

    def glued(self, stmt):
        """Mark stmt as bound to the statement before it (a clamp after `x += e`): no
        exit may be placed between them, or the value would grow unclamped."""
        stmt.fuzz_glued = True
        return stmt

    def unpack_stmt(self):
        vs = self.mutable()
        if len(vs) < 2:
            return None
        a, b = self.rng.sample(vs, 2)
        if self.rng.random() < 0.4 and a.type == b.type:
            value = ast.Tuple(elts=[name(b.name), name(a.name)], ctx=ast.Load())
        else:
            value = self.x.expr(("tuple", a.type, b.type), 1)
            value = value.node if self.rng.random() < 0.5 else ast.Tuple(
                elts=[self.x.stored(a.type, 1), self.x.stored(b.type, 1)], ctx=ast.Load())
        target = ast.Tuple(elts=[store(a.name), store(b.name)], ctx=ast.Store())
        if {kind(a.type), kind(b.type)} & {"list", "dict"} and \
                (a.type in self.ctx.frozen or b.type in self.ctx.frozen):
            return None
        return [assign(target, value)]

    # -- containers ---------------------------------------------------------------------------
    def mutate_stmt(self):
        vs = self.ctx.mutable_containers("list") + self.ctx.mutable_containers("dict")
        if not vs:
            return None
        v = self.rng.choice(vs)
        return self.mutate_list(v) if kind(v.type) == "list" else self.mutate_dict(v)

    def mutate_list(self, v):
        xs, el, risky = name(v.name), v.type[1], self.ctx.chance(self.ctx.risk)
        r = self.rng.random()
        if kind(el) == "list" and el not in self.ctx.frozen and r < 0.25:
            inner = index(xs, self.x.position(E(xs, 0), 1))  # v[i].append(e): an alias
            stmt = ast.Expr(method(inner, "append", self.x.stored(el[1], 1)))
            return [stmt] if risky else [if_(name(v.name), [stmt])]
        if r < 0.3:
            return [ast.Expr(method(xs, "append", self.x.stored(el, 1)))]
        if r < 0.4:
            pos = self.x.small_int(1, 6).node
            return [ast.Expr(method(xs, "insert", pos, self.x.stored(el, 1)))]
        if r < 0.5:
            other = self.x.expr(v.type, 1)
            return [ast.Expr(method(xs, "extend", slice_(other.node, hi=ast.Constant(3))))]
        if r < 0.62:
            stmt = ast.Expr(method(xs, "pop", *([self.x.small_int(1, 3).node]
                                                if self.rng.random() < 0.3 else [])))
            return [stmt] if risky else [if_(name(v.name), [stmt])]
        if r < 0.72 and kind(el) in (INT, STR, FLOAT, BOOL):
            meth = self.rng.choice(("sort", "reverse"))
            if native() and el == FLOAT:  # sorting floats: not native yet
                meth = "reverse"
            return [ast.Expr(method(xs, meth))]
        if r < 0.85:
            pos = self.x.position(E(xs, 0), 1)
            stmt = assign(ast.Subscript(value=name(v.name), slice=pos, ctx=ast.Store()),
                          self.x.stored(el, 1))
            return [stmt] if risky else [if_(name(v.name), [stmt])]
        if r < 0.93:
            if native() and el == FLOAT:  # float equality (remove, in): not native yet
                return None
            item = self.x.stored(el, 1)
            stmt = ast.Expr(method(xs, "remove", item))
            if risky:
                return [stmt]
            test = ast.Compare(left=item, ops=[ast.In()], comparators=[name(v.name)])
            return [if_(test, [ast.Expr(method(name(v.name), "remove", item))])]
        pos = self.x.position(E(xs, 0), 1)
        target = ast.Subscript(value=name(v.name), slice=pos, ctx=ast.Del())
        stmt = ast.Delete(targets=[target])
        return [stmt] if risky else [if_(name(v.name), [stmt])]

    def mutate_dict(self, v):
        dd, kt, vt = name(v.name), v.type[1], v.type[2]
        key = self.x.stored(kt, 1)
        r = self.rng.random()
        if r < 0.45:
            target = ast.Subscript(value=dd, slice=key, ctx=ast.Store())
            return [assign(target, self.x.stored(vt, 1))]
        if r < 0.6:
            return [ast.Expr(method(dd, "pop", key, self.x.stored(vt, 1)))]
        if r < 0.7:
            return [ast.Expr(method(dd, "setdefault", key, self.x.stored(vt, 1)))]
        if r < 0.8:
            return [ast.Expr(method(dd, "update", self.x.expr(v.type, 1).node))]
        stmt = ast.Delete(targets=[ast.Subscript(value=name(v.name), slice=key, ctx=ast.Del())])
        if self.ctx.chance(self.ctx.risk):
            return [stmt]
        test = ast.Compare(left=key, ops=[ast.In()], comparators=[name(v.name)])
        return [if_(test, [ast.Delete(targets=[ast.Subscript(
            value=name(v.name), slice=key, ctx=ast.Del())])])]

    # -- raising and exits ----------------------------------------------------------------------
    def raise_stmt(self):
        cls = self.rng.choice(EXCEPTIONS)
        msg = self.x.message()
        exc = call(cls, msg) if self.rng.random() < 0.9 else call(cls)
        return [if_(self.x.expr(BOOL, 1).node, [ast.Raise(exc=exc, cause=None)])]

    def assert_stmt(self):
        msg = self.x.message() if self.rng.random() < 0.6 else None
        return [ast.Assert(test=self.x.expr(BOOL, 1).node, msg=msg)]

    def exit_stmt(self):
        """A return, break or continue (inside a loop), to end a conditional block."""
        r = self.rng.random()
        if self.ctx.loops and not self.in_while_cond and r < 0.6:
            return ast.Break() if r < 0.3 else ast.Continue()
        return ast.Return(value=self.x.stored(self.ctx.current.ret, 1))

    def edepth(self) -> int:
        return self.rng.choice((1, 2, 2))

