"""int and float expressions.

Int expressions carry a bound on their magnitude; an operation whose bound would pass
LIMIT gets an operand reduced modulo a small number first, so no intermediate value
leaves int64. Divisors are nonzero unless the function's risk allows a raw one.
"""

from __future__ import annotations

import ast

from ember.fuzz.astutil import binop, call, const, index, method, name
from ember.fuzz.gtypes import BOOL, FLOAT, INT, INT_BOUND, LIST_BOUND, STR, kind, list_of, native
from ember.fuzz.scope import E

LIMIT = 1 << 60
"""Largest magnitude an int expression may reach."""

class ScalarExprs:
    # -- int ----------------------------------------------------------------------------------
    def int_prods(self):
        return [(4, self.int_arith), (1, self.int_bitwise), (1, self.int_unary),
                (1, self.int_minmax), (2, self.int_len), (1, self.int_from_float),
                (2, self.int_index), (1, self.int_str_method), (1, self.int_pow),
                (1, self.int_misc)]

    def int_literal(self, t, d):
        r = self.rng.random()
        v = self.rng.randint(-5, 12) if r < 0.8 else self.rng.randint(-1000, 1000)
        return E(const(v), abs(v))

    def fit(self, e: E, limit: int) -> E:
        """e, reduced modulo a small number when its bound exceeds limit."""
        if e.b <= limit:
            return e
        m = self.rng.randint(2, 1000)
        return E(binop(e.node, ast.Mod(), ast.Constant(m)), m)

    def divisor(self, d) -> E:
        ctx = self.ctx
        if ctx.chance(ctx.risk):
            return self.expr(INT, d)
        if self.rng.random() < 0.5:
            v = self.rng.choice((1, 2, 3, 7, -2, -5, 10, 100))
            return E(const(v), abs(v))
        e = self.fit(self.expr(INT, d), LIMIT // 2)
        return E(binop(binop(call("abs", e.node), ast.Mod(), ast.Constant(9)), ast.Add(),
                       ast.Constant(1)), 9)

    def int_arith(self, t, d):
        op = self.rng.choice((ast.Add, ast.Sub, ast.Mult, ast.Mult, ast.FloorDiv, ast.Mod))
        a = self.expr(INT, d)
        if op in (ast.FloorDiv, ast.Mod):
            b = self.divisor(d)
            return E(binop(a.node, op(), b.node), a.b + 1 if op is ast.FloorDiv else b.b)
        b = self.expr(INT, d)
        if op is ast.Mult:
            a, b = self.fit(a, 1 << 30), self.fit(b, 1 << 29)
            return E(binop(a.node, op(), b.node), a.b * b.b)
        a, b = self.fit(a, LIMIT // 2), self.fit(b, LIMIT // 2)
        return E(binop(a.node, op(), b.node), a.b + b.b)

    def int_bitwise(self, t, d):
        a, b = self.fit(self.expr(INT, d), LIMIT // 4), self.fit(self.expr(INT, d), LIMIT // 4)
        r = self.rng.random()
        if r < 0.6:
            op = self.rng.choice((ast.BitAnd, ast.BitOr, ast.BitXor))
            return E(binop(a.node, op(), b.node), 2 * max(a.b, b.b) + 1)
        k = self.rng.randint(0, 6)
        if r < 0.8:
            return E(binop(a.node, ast.RShift(), ast.Constant(k)), a.b)
        a = self.fit(a, 1 << 40)
        return E(binop(a.node, ast.LShift(), ast.Constant(k)), a.b << k)

    def int_unary(self, t, d):
        a = self.expr(INT, d)
        op = self.rng.choice(("neg", "abs", "invert", "pos"))
        if op == "abs":
            return E(call("abs", a.node), a.b)
        uop = {"neg": ast.USub, "invert": ast.Invert, "pos": ast.UAdd}[op]()
        return E(ast.UnaryOp(op=uop, operand=a.node), a.b + 1)

    def int_minmax(self, t, d):
        args = [self.expr(INT, d) for _ in range(self.rng.randint(2, 3))]
        fn = self.rng.choice(("min", "max"))
        return E(call(fn, *[a.node for a in args]), max(a.b for a in args))

    def int_len(self, t, d):
        t2 = self.rng.choice((STR, list_of(INT), list_of(STR), ("dict", STR, INT)))
        e = self.expr(t2, d)
        return E(call("len", e.node), max(e.b, 1) if kind(t2) != "dict" else LIST_BOUND)

    def int_from_float(self, t, d):
        f = binop(self.expr(FLOAT, d).node, ast.Mod(), ast.Constant(1000.0))
        fn = self.rng.choice(("int", "round", "int"))
        return E(call(fn, f), 1001)

    def int_index(self, t, d):
        """xs[i], t[k], d[k] or d.get(k, default) for an int element."""
        r = self.rng.random()
        if r < 0.5:
            xs = self.expr(list_of(INT), d)
            return E(index(xs.node, self.position(xs, d)), INT_BOUND)
        if r < 0.75:
            dd = self.expr(("dict", STR, INT), d)
            k = self.expr(STR, d).node
            if self.ctx.chance(self.ctx.risk):
                return E(index(dd.node, k), INT_BOUND)
            return E(method(dd.node, "get", k, self.int_literal(INT, 0).node), INT_BOUND)
        e = self.expr(("tuple", INT, STR), d)
        return E(index(e.node, ast.Constant(0)), INT_BOUND)

    def position(self, seq: E, d) -> ast.expr:
        """An index into seq: usually in range (modulo its length), sometimes not."""
        if self.ctx.chance(self.ctx.risk):
            return self.small_int(d, 8).node if self.rng.random() < 0.5 else const(-1)
        n = call("max", call("len", seq.node), ast.Constant(1))
        return binop(self.fit(self.expr(INT, d), LIMIT // 2).node, ast.Mod(), n)

    def int_str_method(self, t, d):
        s, sub = self.expr(STR, d), self.expr(STR, d)
        meth = self.rng.choice(("find", "rfind", "count", "find", "index"))
        if meth == "index" and not self.ctx.chance(self.ctx.risk * 3):
            meth = "count"
        return E(method(s.node, meth, sub.node), max(s.b, 1) + 1)

    def int_pow(self, t, d):
        a = self.fit(self.expr(INT, d), 1000)
        k = self.rng.randint(0, 3)
        return E(binop(a.node, ast.Pow(), ast.Constant(k)), max(a.b, 1) ** k)

    def int_misc(self, t, d):
        r = self.rng.random()
        if r < 0.3:
            a, b = self.expr(INT, d), self.divisor(d)
            return E(index(call("divmod", a.node, b.node), ast.Constant(int(r < 0.15))), a.b + b.b)
        if r < 0.4:
            return E(call("int", self.expr(BOOL, d).node), 1)
        if r < 0.5:
            a = self.expr(INT, d)
            return E(call("round", a.node, const(self.rng.randint(-3, 1))), a.b * 2 + 1000)
        if r < 0.7:
            s = self.expr(STR, d)
            return E(call("ord", index(binop(s.node, ast.Add(), ast.Constant("z")),
                                       ast.Constant(0))), 0x110000)
        if r < 0.8:
            xs = self.expr(list_of(INT), d)
            return E(call("sum", xs.node), INT_BOUND * LIST_BOUND)
        if r < 0.9:
            return self.int_list_query(d)
        if native():  # through str
            return None
        return E(call("int", call("str", self.fit(self.expr(INT, d), 10 ** 9).node)), 10 ** 9)

    def int_list_query(self, d):
        """xs.count(v), xs.index(v) or max/min(xs) (guarded unless the risk allows)."""
        xs, v = self.expr(list_of(INT), d), self.expr(INT, d)
        r = self.rng.random()
        if r < 0.4:
            return E(method(xs.node, "count", v.node), LIST_BOUND)
        risky = self.ctx.chance(self.ctx.risk * 2)
        if r < 0.7:
            node = method(xs.node, "index", v.node)
            test = ast.Compare(left=v.node, ops=[ast.In()], comparators=[xs.node])
        else:
            node = call(self.rng.choice(("max", "min")), xs.node)
            test = xs.node
        if risky:
            return E(node, INT_BOUND)
        return E(ast.IfExp(test=test, body=node, orelse=const(-1)), INT_BOUND)

    # -- float --------------------------------------------------------------------------------
    def float_prods(self):
        return [(4, self.float_arith), (2, self.float_from_int), (1, self.float_math),
                (1, self.float_unary), (1, self.float_misc)]

    def float_literal(self, t, d):
        v = self.rng.choice((0.0, 0.5, 1.0, 2.0, -1.5, 0.1, 3.25, 1e-3, 2.5e6, -0.0, 100.0,
                             float(self.rng.randint(-9, 9))))
        return E(const(v))

    def num(self, d):
        """A float, or sometimes an int (mixed arithmetic)."""
        if self.rng.random() < 0.25:
            return self.expr(INT, d)
        return self.expr(FLOAT, d)

    def float_arith(self, t, d):
        op = self.rng.choice((ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.FloorDiv))
        a = self.expr(FLOAT, d)
        b = self.num(d)
        if self.rng.random() < 0.3:
            a, b = b, a
        if op in (ast.Div, ast.Mod, ast.FloorDiv) and not self.ctx.chance(self.ctx.risk):
            b = E(const(self.rng.choice((2.0, 0.5, -4.0, 3.0, 7.0))))
        return E(binop(a.node, op(), b.node))

    def float_from_int(self, t, d):
        if self.rng.random() < 0.5:
            return E(call("float", self.expr(INT, d).node))
        a, b = self.expr(INT, d), self.divisor(d)
        return E(binop(a.node, ast.Div(), b.node))

    def float_math(self, t, d):
        x = self.expr(FLOAT, d).node
        fn = self.rng.choice(("sqrt", "sin", "cos", "atan", "floor_f", "log", "exp", "fabs",
                              "tanh", "hypot"))
        attr = ast.Attribute(value=name("math"), attr=fn.split("_")[0], ctx=ast.Load())
        if fn == "sqrt":
            return E(call(attr, call("abs", x)))
        if fn == "log":
            return E(call(attr, binop(call("abs", x), ast.Add(), ast.Constant(1.0))))
        if fn == "exp":
            return E(call(attr, call("min", x, ast.Constant(50.0))))
        if fn == "floor_f":
            return E(call("float", call(attr, binop(x, ast.Mod(), ast.Constant(1e6)))))
        if fn == "hypot":
            return E(call(attr, x, self.expr(FLOAT, d).node))
        return E(call(attr, x))

    def float_unary(self, t, d):
        x = self.expr(FLOAT, d).node
        r = self.rng.random()
        if r < 0.3:
            return E(ast.UnaryOp(op=ast.USub(), operand=x))
        if r < 0.5:
            return E(call("abs", x))
        if r < 0.7:
            if native():  # round(float, n): not native yet
                return None
            return E(call("round", x, const(self.rng.randint(-2, 3))))
        if r < 0.85:
            return E(binop(call("abs", x), ast.Pow(), ast.Constant(self.rng.choice((0.5, 2, 2.0)))))
        return E(call(self.rng.choice(("min", "max")), x, self.expr(FLOAT, d).node))

    def float_misc(self, t, d):
        r = self.rng.random()
        if r < 0.4:
            # Never sum([]) of floats: CPython gives int 0, a float-typed sum gives 0.0.
            xs = self.expr(list_of(FLOAT), d)
            head = ast.List(elts=[self.float_literal(FLOAT, 0).node], ctx=ast.Load())
            return E(call("sum", binop(head, ast.Add(), xs.node)))
        if r < 0.7:
            xs = self.expr(list_of(FLOAT), d)
            return E(index(xs.node, self.position(xs, d)))
        s = self.rng.choice(("1.5", "-0.25", "1e3", "inf", "nan", " 7 ", "2"))
        if self.ctx.chance(self.ctx.risk):
            return E(call("float", self.expr(STR, d).node))
        return E(call("float", ast.Constant(s)))
