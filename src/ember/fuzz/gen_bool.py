"""bool expressions: comparisons (chained, mixed int/float), and/or/not, membership,
string predicates, None tests, any/all and list comparisons."""

from __future__ import annotations

import ast

from ember.fuzz.astutil import call, method, name
from ember.fuzz.gtypes import BOOL, FLOAT, INT, STR, allowed, kind, list_of, native
from ember.fuzz.scope import E

_CMP = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


class BoolExprs:
    def bool_prods(self):
        return [(4, self.bool_compare), (2, self.bool_logic), (2, self.bool_contains),
                (1, self.bool_str_pred), (1, self.bool_none_test), (1, self.bool_misc)]

    def bool_literal(self, t, d):
        return E(ast.Constant(self.rng.random() < 0.5), 1)

    def bool_compare(self, t, d):
        ty = self.rng.choice(allowed((INT, INT, FLOAT, STR, "mixed")))
        n = 2 if self.rng.random() < 0.85 else 3
        if ty == "mixed":
            operands = [self.expr(INT, d), self.expr(FLOAT, d)][:n]
        else:
            operands = [self.expr(ty, d) for _ in range(n)]
        ops = [self.rng.choice(_CMP)() for _ in operands[1:]]
        return E(ast.Compare(left=operands[0].node, ops=ops,
                             comparators=[o.node for o in operands[1:]]), 1)

    def bool_logic(self, t, d):
        r = self.rng.random()
        if r < 0.3:
            return E(ast.UnaryOp(op=ast.Not(), operand=self.expr(BOOL, d).node), 1)
        op = ast.And() if r < 0.65 else ast.Or()
        vals = [self.expr(BOOL, d).node for _ in range(self.rng.randint(2, 3))]
        return E(ast.BoolOp(op=op, values=vals), 1)

    def bool_contains(self, t, d):
        r = self.rng.random()
        if r < 0.4:
            pair = (self.expr(INT, d), self.expr(list_of(INT), d))
        elif r < 0.7:
            pair = (self.expr(STR, d), self.expr(STR, d))
        elif r < 0.85:
            pair = (self.expr(STR, d), self.expr(("dict", STR, INT), d))
        else:
            elts = ast.Tuple(elts=[self.expr(INT, d).node for _ in range(3)], ctx=ast.Load())
            pair = (self.expr(INT, d), E(elts))
        op = ast.In() if self.rng.random() < 0.7 else ast.NotIn()
        return E(ast.Compare(left=pair[0].node, ops=[op], comparators=[pair[1].node]), 1)

    def bool_str_pred(self, t, d):
        s = self.expr(STR, d).node
        meth = self.rng.choice(("isdigit", "isalpha", "isspace", "isupper", "islower",
                                "startswith", "endswith", "isalnum", "istitle"))
        if meth in ("startswith", "endswith"):
            return E(method(s, meth, self.expr(STR, d).node), 1)
        return E(method(s, meth), 1)

    def bool_none_test(self, t, d):
        vs = [v for v in self.ctx.visible() if kind(v.type) == "opt"]
        if not vs:
            return None
        op = ast.Is() if self.rng.random() < 0.5 else ast.IsNot()
        return E(ast.Compare(left=name(self.rng.choice(vs).name), ops=[op],
                             comparators=[ast.Constant(None)]), 1)

    def bool_misc(self, t, d):
        r = self.rng.random()
        if r < 0.4:
            xs = self.expr(list_of(BOOL), d)
            return E(call(self.rng.choice(("any", "all")), xs.node), 1)
        if r < 0.7:
            return E(call("bool", self.expr(self.rng.choice(allowed((INT, FLOAT, STR))), d).node), 1)
        return E(ast.Compare(left=self.expr(list_of(INT), d).node,
                             ops=[self.rng.choice((ast.Eq, ast.NotEq, ast.Lt))()],
                             comparators=[self.expr(list_of(INT), d).node]), 1)
