"""str expressions: concatenation, slicing, str()/repr() of any type, f-strings and
str.format with format specs, %-formatting and string methods.

Expressions inside f-string fields hold no string constants (quotes inside f-strings
are a syntax question, not a semantic one); the generator re-parses what it writes.
"""

from __future__ import annotations

import ast

from ember.fuzz.astutil import binop, call, const, index, method, name, slice_
from ember.fuzz.gtypes import BOOL, FLOAT, INT, STR, STR_BOUND, WORDS, kind, list_of, random_type
from ember.fuzz.scope import E

SPECS = {
    INT: ("", "d", "5d", "05d", "<6", ">6", "^7", "+d", " d", ",", "_", "x", "X", "o", "b",
          "#x", "08b", "=+8", "*^9", "#o"),
    FLOAT: ("", ".2f", "10.3f", "<10.1f", "e", ".3e", ".3g", "g", ".1%", "+.2f", ",.2f",
            "08.2f", "E", "G", ".0f", "^12.4", "#.0f", "-.1e"),
    STR: ("", ">8", "<6", "^9", "*^9", ".2", "10.3", "-<5"),
    BOOL: ("", ">6", "d", "^5"),
}
"""Format specs per type (each valid for that type under CPython)."""
PERCENT = {INT: ("%d", "%5d", "%-4d", "%x", "%o", "%+d", "%s", "%r"),
           FLOAT: ("%f", "%.2f", "%8.3f", "%e", "%g", "%s", "%r", "%.0f"),
           STR: ("%s", "%r", "%8s", "%-6s", "%.2s")}
TEXT = ("", "x=", " | ", "{", "}", "é", "-", ": ", "\n", "[", "]", "%")
_CASE = ("upper", "lower", "title", "capitalize", "swapcase", "casefold", "strip", "lstrip",
         "rstrip")


def _has_str_const(node) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) or
               isinstance(n, ast.JoinedStr) for n in ast.walk(node))


class TextExprs:
    def str_prods(self):
        return [(3, self.str_concat), (2, self.str_slice), (3, self.str_of), (3, self.fstring),
                (2, self.str_format), (1, self.str_percent), (3, self.str_method),
                (1, self.str_join), (1, self.str_misc)]

    def str_literal(self, t, d):
        s = self.rng.choice(WORDS)
        return E(ast.Constant(s), len(s))

    def str_concat(self, t, d):
        a, b = self.expr(STR, d), self.expr(STR, d)
        if self.rng.random() < 0.25:
            k = self.small_int(d, 4)
            return E(binop(a.node, ast.Mult(), k.node), a.b * 3)
        return E(binop(a.node, ast.Add(), b.node), a.b + b.b)

    def str_slice(self, t, d):
        s = self.expr(STR, d)
        r = self.rng.random()
        if r < 0.25:
            return E(slice_(s.node, step=const(-1)), s.b)
        if r < 0.45:
            return E(index(s.node, self.position(s, d)), 1)
        lo = self.small_int(d, 6).node if self.rng.random() < 0.7 else None
        hi = const(self.rng.randint(-4, 8)) if self.rng.random() < 0.7 else None
        step = const(self.rng.choice((1, 2, -1, -2, 3))) if self.rng.random() < 0.3 else None
        return E(slice_(s.node, lo, hi, step), s.b)

    def str_of(self, t, d):
        ty = random_type(self.rng, 1)
        e = self.expr(ty, d)
        fn = "repr" if kind(ty) == STR and self.rng.random() < 0.3 else "str"
        return E(call(fn, e.node), STR_BOUND * 8)

    def field_value(self, d):
        """(type, expression) for an f-string field: no string constants inside."""
        ty = self.rng.choice((INT, INT, FLOAT, FLOAT, STR, BOOL))
        for _ in range(4):
            e = self.expr(ty, d)
            if not _has_str_const(e.node):
                return ty, e.node
        vs = self.ctx.vars_of(ty)
        if vs:
            return ty, name(self.rng.choice(vs).name)
        return INT, const(self.rng.randint(-50, 50))

    def spec(self, ty) -> str:
        return self.rng.choice(SPECS[ty])

    def fstring(self, t, d):
        parts = []
        for _ in range(self.rng.randint(1, 3)):
            text = self.rng.choice(TEXT)
            if text:
                parts.append(ast.Constant(text))
            ty, node = self.field_value(d)
            conv = -1
            spec = self.spec(ty)
            if not spec and self.rng.random() < 0.2:
                conv = ord(self.rng.choice("rs"))
            fs = ast.JoinedStr(values=[ast.Constant(spec)]) if spec else None
            parts.append(ast.FormattedValue(value=node, conversion=conv, format_spec=fs))
        return E(ast.JoinedStr(values=parts), STR_BOUND * 4)

    def str_format(self, t, d):
        fields, args = [], []
        n = self.rng.randint(1, 3)
        for _ in range(n):
            ty, node = self.field_value(d)
            args.append(node)
            fields.append(self.spec(ty))
        numbered = self.rng.random() < 0.3
        order = list(range(n))
        if numbered:
            self.rng.shuffle(order)
        pieces = []
        for i in order:
            ref = str(i) if numbered else ""
            spec = f":{fields[i]}" if fields[i] else ""
            pieces.append(self.rng.choice(TEXT).replace("{", "{{").replace("}", "}}"))
            pieces.append("{" + ref + spec + "}")
        return E(method(ast.Constant("".join(pieces)), "format", *args), STR_BOUND * 4)

    def str_percent(self, t, d):
        n = self.rng.randint(1, 2)
        fmts, args = [], []
        for _ in range(n):
            ty = self.rng.choice((INT, FLOAT, STR))
            fmts.append(self.rng.choice(PERCENT[ty]))
            args.append(self.expr(ty, d).node)
        text = self.rng.choice(("", "v=", "[")).join(fmts) if n > 1 else "<" + fmts[0] + ">"
        rhs = args[0] if n == 1 else ast.Tuple(elts=args, ctx=ast.Load())
        return E(binop(ast.Constant(text), ast.Mod(), rhs), STR_BOUND * 4)

    def str_method(self, t, d):
        s = self.expr(STR, d)
        r = self.rng.random()
        if r < 0.35:
            meth = self.rng.choice(_CASE)
            args = [ast.Constant(self.rng.choice((" ", "ab", "x")))] if \
                meth.endswith("strip") and self.rng.random() < 0.3 else []
            return E(method(s.node, meth, *args), s.b * 3)
        if r < 0.55:
            old, new = self.expr(STR, d), self.expr(STR, d)
            return E(slice_(method(s.node, "replace", old.node, new.node),
                            hi=ast.Constant(STR_BOUND)), STR_BOUND)
        if r < 0.8:
            meth = self.rng.choice(("zfill", "center", "ljust", "rjust"))
            width = self.small_int(d, 12).node
            args = [width] + ([ast.Constant(self.rng.choice("*-. "))]
                              if meth != "zfill" and self.rng.random() < 0.5 else [])
            return E(method(s.node, meth, *args), s.b + 12)
        meth = self.rng.choice(("removeprefix", "removesuffix", "expandtabs"))
        if meth == "expandtabs":
            return E(method(s.node, meth, self.small_int(d, 5).node), s.b * 5)
        return E(method(s.node, meth, self.expr(STR, d).node), s.b)

    def str_join(self, t, d):
        sep = self.expr(STR, d)
        xs = self.expr(list_of(STR), d)
        node = method(sep.node, "join", xs.node)
        return E(slice_(node, hi=ast.Constant(STR_BOUND)), STR_BOUND)

    def str_misc(self, t, d):
        r = self.rng.random()
        if r < 0.4:
            k = self.small_int(d, 26)
            return E(call("chr", binop(ast.Constant(65), ast.Add(), k.node)), 1)
        if r < 0.7:
            xs = self.expr(list_of(STR), d)
            return E(index(xs.node, self.position(xs, d)), STR_BOUND)
        e = self.expr(("tuple", STR, STR, STR), d)
        return E(index(e.node, ast.Constant(self.rng.randint(0, 2))), STR_BOUND)

