"""Statements with control flow: if/elif/else, for over every iteration source (with
else, break and continue), fuel-bounded while loops, and try/except/else/finally.

Every while loop is `while fuelN < K and cond:` whose body starts with `fuelN += 1`;
the shrinker keeps both (see shrink.protected), so no program ever loops forever.
"""

from __future__ import annotations

import ast

from ember.fuzz.astutil import call, name
from ember.fuzz.gen_stmt import EXCEPTIONS, SimpleStmts, assign, if_, store
from ember.fuzz.gen_expr import Avoid
from ember.fuzz.gtypes import BOOL, INT, STR, STR_BOUND, native
from ember.fuzz.scope import Var

MAX_NEST = 3
"""Deepest nesting of compound statements."""
MAX_LOOPS = 2
"""Deepest nesting of loops (comprehensions inside count too)."""
_EXITS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


class StmtGen(SimpleStmts):
    """Statement lists over a Ctx, with expressions from an ExprGen."""

    def __init__(self, ctx, x):
        self.ctx, self.x, self.rng = ctx, x, ctx.rng
        self.in_while_cond = False

    def block(self, n: int, nest: int, exit_p: float = 0.0) -> list:
        """About n statements (fewer when the function's budget runs out), never empty;
        with probability exit_p the block ends in a return, break or continue."""
        out = []
        for _ in range(n):
            if self.ctx.stmts_left <= 0:
                break
            out.extend(self.statement(nest))
        if self.rng.random() < exit_p:
            out.append(self.exit_stmt())
        return out or [ast.Pass()]

    def statement(self, nest: int) -> list:
        self.ctx.stmts_left -= 1
        prods = [(w, lambda f=f: f()) for w, f in self.simple_prods()]
        if nest < MAX_NEST:
            prods += [(3, lambda: self.if_stmt(nest)), (2, lambda: self.try_stmt(nest)),
                      (1, lambda: self.refine_stmt(nest))]
            if self.ctx.loops < MAX_LOOPS:
                prods += [(3, lambda: self.for_stmt(nest)), (1, lambda: self.while_stmt(nest))]
        for _ in range(6):
            out = self.attempt(self.x.pick(prods))
            if out:
                return out
        return [ast.Pass()]

    def attempt(self, production):
        """Run a statement production; one that asked for an avoided type (the native
        profile) yields nothing and leaves the scopes as they were."""
        ctx = self.ctx
        saved = (len(ctx.scopes), ctx.loops, set(ctx.frozen), ctx.in_try, ctx.in_closure)
        try:
            return production()
        except Avoid:
            del ctx.scopes[saved[0]:]
            ctx.loops, ctx.frozen, ctx.in_try, ctx.in_closure = saved[1:]
            self.in_while_cond = False
            return None

    # -- if -------------------------------------------------------------------------------------
    def if_stmt(self, nest):
        test = self.x.expr(BOOL, 2).node
        body = self.block(self.rng.randint(1, 3), nest + 1, exit_p=0.25)
        orelse = []
        r = self.rng.random()
        if r < 0.3:
            orelse = self.if_stmt(nest + 1)
        elif r < 0.7:
            orelse = self.block(self.rng.randint(1, 2), nest + 1, exit_p=0.1)
        return [if_(test, body, orelse)]

    def refine_stmt(self, nest):
        """`if o is not None:` (or `is None` with an else) using o as its element type."""
        opts = self.ctx.refinable()
        if not opts:
            return None
        o = self.rng.choice(opts)
        positive = self.rng.random() < 0.6
        test = ast.Compare(left=name(o.name), ops=[ast.IsNot() if positive else ast.Is()],
                           comparators=[ast.Constant(None)])
        self.ctx.push()
        self.ctx.add(Var(o.name, o.type[1], capturable=o.capturable))
        refined = self.block(self.rng.randint(1, 3), nest + 1, exit_p=0.15)
        self.ctx.pop()
        if positive:
            other = self.block(1, nest + 1) if self.rng.random() < 0.3 else []
            return [if_(test, refined, other)]
        return [if_(test, self.block(1, nest + 1, exit_p=0.3), refined)]

    # -- loops ----------------------------------------------------------------------------------
    def loop_body(self, nest) -> list:
        body = self.block(self.rng.randint(1, 3), nest + 1)
        if self.rng.random() < 0.35:
            cond = self.x.expr(BOOL, 1).node
            free = [i for i in range(len(body) + 1)
                    if i == len(body) or not getattr(body[i], "fuzz_glued", False)]
            body.insert(self.rng.choice(free), if_(cond, [self.exit_stmt()]))
        return body

    def for_stmt(self, nest):
        it, targets, frozen = self.x.iter_source(1)
        with self.ctx.loop(targets, frozen):
            body = self.loop_body(nest)
            target = self.x.target(targets)
        orelse = self.block(1, nest + 1) if self.rng.random() < 0.25 else []
        return [ast.For(target=target, iter=it, body=body, orelse=orelse, lineno=0)]

    def while_stmt(self, nest):
        fuel = self.ctx.fresh("fuel")
        limit = ast.Constant(self.rng.randint(1, 6))
        guard = ast.Compare(left=name(fuel), ops=[ast.Lt()], comparators=[limit])
        with self.ctx.loop([(fuel, INT)]):
            cond = self.x.expr(BOOL, 1).node
            test = ast.BoolOp(op=ast.And(), values=[guard, cond]) \
                if self.rng.random() < 0.8 else guard
            step = ast.AugAssign(target=store(fuel), op=ast.Add(), value=ast.Constant(1))
            body = [step] + self.loop_body(nest)
        orelse = self.block(1, nest + 1) if self.rng.random() < 0.25 else []
        return [assign(fuel, ast.Constant(0)), ast.While(test=test, body=body, orelse=orelse)]

    # -- try --------------------------------------------------------------------------------------
    def try_stmt(self, nest):
        self.ctx.in_try += 1
        body = self.block(self.rng.randint(1, 3), nest + 1, exit_p=0.1)
        handlers = [self.handler(nest) for _ in range(self.rng.choice((0, 1, 1, 1, 2)))]
        orelse = self.block(1, nest + 1) if handlers and self.rng.random() < 0.25 else []
        final = []
        if not handlers or self.rng.random() < 0.35:
            final = self.block(self.rng.randint(1, 2), MAX_NEST)
        self.ctx.in_try -= 1
        return [ast.Try(body=body, handlers=handlers, orelse=orelse, finalbody=final)]

    def handler(self, nest) -> ast.ExceptHandler:
        r = self.rng.random()
        if r < 0.5:
            typ = name(self.rng.choice(EXCEPTIONS))
        elif r < 0.75:
            typ = ast.Tuple(elts=[name(c) for c in self.rng.sample(EXCEPTIONS, 2)],
                            ctx=ast.Load())
        elif r < 0.95:
            typ = name("Exception")
        else:
            typ = None
        ename = self.ctx.fresh("e") if typ is not None and self.rng.random() < 0.7 else None
        body = []
        strs = self.mutable(STR)
        if ename and strs:
            msg = ast.Subscript(value=call("str", name(ename)), ctx=ast.Load(),
                                slice=ast.Slice(upper=ast.Constant(STR_BOUND)))
            body.append(assign(self.rng.choice(strs).name, msg))
        body += self.block(self.rng.randint(0, 2), nest + 1, exit_p=0.1)
        r = self.rng.random()
        if r < 0.12 and not (body and isinstance(body[-1], _EXITS)):
            body.append(ast.Raise(exc=None, cause=None))  # re-raise the caught exception
        elif r < 0.2 and ename and not (body and isinstance(body[-1], _EXITS)) and \
                not native():  # str(e): a str
            cls = self.rng.choice(EXCEPTIONS)
            body.append(ast.Raise(exc=call(cls, call("str", name(ename))), cause=None))
        return ast.ExceptHandler(type=typ, name=ename, body=body or [ast.Pass()])
