"""The typed expression generator: `ExprGen.expr(t, depth)` returns an E of type t.

Productions live in mixins by result type (gen_scalar, gen_text, gen_container); this
file holds the dispatch, the productions every type shares (variables, conditional
expressions, calls of generated functions and lambdas) and AST helpers.
"""

from __future__ import annotations

import ast

from ember.fuzz.astutil import binop, call, const, name, slice_
from ember.fuzz.gen_bool import BoolExprs
from ember.fuzz.gen_container import ContainerExprs
from ember.fuzz.gen_scalar import ScalarExprs
from ember.fuzz.gen_text import TextExprs
from ember.fuzz.gtypes import BOOL, INT, INT_BOUND, STR, STR_BOUND, avoided, kind
from ember.fuzz.scope import E, default_bound

STORE_LIST = 24
"""Longest list a reassignment stores (longer values are sliced)."""


class Avoid(Exception):
    """An expression of a type the native profile leaves out (str, dict) was asked for:
    the production (or statement) asking for it gives way to another."""


class ExprGen(ScalarExprs, BoolExprs, TextExprs, ContainerExprs):
    """Expressions of a requested type over the variables of a Ctx."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.rng = ctx.rng

    # -- dispatch ---------------------------------------------------------------------------
    def expr(self, t, d: int = 2) -> E:
        """An expression of type t, nested at most d levels below its leaves."""
        if avoided(t):
            raise Avoid(t)
        prods = [(6, self.var_expr), (2, self.literal_expr)]
        if d > 0:
            prods += [(1, self.ifexp_expr), (2, self.call_expr), (1, self.unwrap_expr)]
            if t in (INT, STR):
                prods.append((1, self.boolop_value))
            prods += self.productions(kind(t))
        for _ in range(8):
            fn = self.pick(prods)
            try:
                e = fn(t, d - 1)
            except Avoid:
                e = None
            if e is not None:
                return e
        return self.literal_expr(t, 0)

    def message(self) -> ast.expr:
        """A str expression for an exception's message (a constant in the native profile,
        whose natively compiled raise takes constant messages)."""
        if avoided(STR):
            return self.str_literal(STR, 0).node
        return self.expr(STR, 1).node

    def productions(self, k: str):
        return {"int": self.int_prods, "float": self.float_prods, "bool": self.bool_prods,
                "str": self.str_prods, "list": self.list_prods, "dict": self.dict_prods,
                "tuple": self.tuple_prods, "opt": self.opt_prods}[k]()

    def pick(self, weighted):
        total = sum(w for w, _ in weighted)
        r = self.rng.random() * total
        for w, fn in weighted:
            r -= w
            if r < 0:
                return fn
        return weighted[-1][1]

    def literal_expr(self, t, d) -> E:
        return {"int": self.int_literal, "float": self.float_literal,
                "bool": self.bool_literal, "str": self.str_literal,
                "list": self.list_literal, "dict": self.dict_literal,
                "tuple": self.tuple_literal, "opt": self.opt_literal}[kind(t)](t, max(d, 0))

    # -- shared productions -------------------------------------------------------------------
    def var_expr(self, t, d):
        vs = self.ctx.vars_of(t)
        if not vs:
            return None
        return E(name(self.rng.choice(vs).name), default_bound(t))

    def ifexp_expr(self, t, d):
        a, b = self.expr(t, d), self.expr(t, d)
        node = ast.IfExp(test=self.expr(BOOL, d).node, body=a.node, orelse=b.node)
        return E(node, max(a.b, b.b))

    def boolop_value(self, t, d):
        """`a or b` / `a and b` over ints or strings: the value of an operand, not a bool."""
        a, b = self.expr(t, d), self.expr(t, d)
        op = ast.Or() if self.rng.random() < 0.6 else ast.And()
        return E(ast.BoolOp(op=op, values=[a.node, b.node]), max(a.b, b.b))

    def unwrap_expr(self, t, d):
        """`o if o is not None else default` for an Optional[t] variable o."""
        vs = self.ctx.refinable(t)
        if not vs:
            return None
        o = name(self.rng.choice(vs).name)
        test = ast.Compare(left=o, ops=[ast.IsNot()], comparators=[ast.Constant(None)])
        default = self.expr(t, d)
        return E(ast.IfExp(test=test, body=o, orelse=default.node),
                 max(default.b, default_bound(t)))

    def call_expr(self, t, d):
        """A call of a generated function, or a lambda / nested def in scope, returning t."""
        ctx = self.ctx
        cands = [f for f in ctx.fns if f.ret == t and (ctx.loops == 0 or f.cheap)
                 and not ctx.in_closure]
        cur = ctx.current
        if cur is not None and cur.recursive and ctx.self_calls and cur.ret == t \
                and ctx.loops == 0 and not ctx.in_closure:
            cands.append(cur)
        fvars = [v for v in ctx.visible() if kind(v.type) == "fn" and v.type[2] == t]
        if fvars and (not cands or self.rng.random() < 0.5):
            v = self.rng.choice(fvars)
            return E(call(v.name, *[self.stored(p, d) for p in v.type[1]]), default_bound(t))
        if not cands:
            return None
        f = self.rng.choice(cands)
        args = [self.stored(pt, d) for _, pt in f.params]
        if f.recursive:
            args[0] = self.depth_arg(f is cur)
        return E(self.call_with_defaults(f, args), default_bound(t))

    def call_with_defaults(self, f, args) -> ast.Call:
        """A call of f: parameters with defaults (the trailing ones) are sometimes left
        out or passed by keyword; after either, the rest go by keyword."""
        pos, kws, by_keyword = [], [], False
        for (pname, _), arg in zip(f.params, args):
            if pname in f.defaults and self.rng.random() < 0.4:
                by_keyword = True
                continue
            if by_keyword or pname in f.defaults and self.rng.random() < 0.4:
                by_keyword = True
                kws.append(ast.keyword(arg=pname, value=arg))
            else:
                pos.append(arg)
        return ast.Call(func=name(f.name), args=pos, keywords=kws)

    def depth_arg(self, recursive_call: bool) -> ast.expr:
        if recursive_call:
            return binop(name("depth"), ast.Sub(), ast.Constant(1 + (self.rng.random() < 0.3)))
        return ast.Constant(self.rng.randint(0, 4))

    # -- storing ------------------------------------------------------------------------------
    def stored(self, t, d: int = 2) -> ast.expr:
        """An expression of type t fit to be stored (ints clamped, strings and lists cut)."""
        return self.clamp(self.expr(t, d), t)

    def clamp(self, e: E, t) -> ast.expr:
        k = kind(t)
        if k == INT and e.b > INT_BOUND:
            if self.rng.random() < 0.5:
                return binop(e.node, ast.Mod(), ast.Constant(self.rng.randint(7, INT_BOUND)))
            inner = call("max", e.node, const(-INT_BOUND))
            return call("min", inner, ast.Constant(INT_BOUND))
        if k == STR and e.b > STR_BOUND:
            return slice_(e.node, hi=ast.Constant(STR_BOUND))
        if k == "list" and e.b > STORE_LIST:
            return slice_(e.node, hi=ast.Constant(STORE_LIST))
        return e.node

    def small_int(self, d: int, bound: int = 5) -> E:
        """An int expression in [0, bound): an expression modulo bound, or a literal."""
        if d <= 0 or self.rng.random() < 0.4:
            return E(ast.Constant(self.rng.randint(0, bound - 1)), bound)
        e = self.expr(INT, d - 1)
        return E(binop(e.node, ast.Mod(), ast.Constant(bound)), bound)
