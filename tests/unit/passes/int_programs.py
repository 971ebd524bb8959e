"""Random integer programs for differential tests of the range analysis and its users.

Each program is a typed function `f(a: int, b: int, n: int) -> int` with loops over
ranges built from the parameters (always short, whatever the arguments), branches on
comparisons, and expressions of + - * // % min max abs and negation. Arguments near the
int64 limits make many of them overflow, at different ops.
"""

from __future__ import annotations

import random

from ember.ops.int64 import INT64_MAX, INT64_MIN

ARGS = [0, 1, -1, 2, 7, -13, 100, 1000003, (1 << 16) + 1, (1 << 21) + 3, (1 << 30) - 1,
        1 << 30, (1 << 30) + 1, 1 << 31, (1 << 31) + 1, -(1 << 31), 3037000499, 3037000500,
        -3037000500, 1 << 62, -(1 << 62), INT64_MAX, INT64_MIN, INT64_MAX - 2, INT64_MIN + 3]
"""Argument values: small, around the versioning limits and squares, and int64 limits."""

CRITICAL = [0, 3037000499, 1 << 31, 1 << 30, 1 << 62, (1 << 63) // 3, INT64_MAX,
            INT64_MIN, -3037000499, 1 << 60]
"""Values where an op starts to overflow (squares, doubling, tripling, the limits) and the
limits the analysis uses (versioning bounds, sequence indices)."""


def near(values, spread: int = 2) -> list[int]:
    """Each value and its neighbours within `spread`, kept within int64."""
    return sorted({v + d for v in values for d in range(-spread, spread + 1)
                   if INT64_MIN <= v + d <= INT64_MAX})

_RANGES = [("0", "min(n, 30)"), ("a % 5", "n % 25"), ("n - 3", "n + 2"), ("b", "b + 4"),
           ("0", "20"), ("-5", "min(n, 10)"), ("max(n, 5) - 5", "max(n, 5)"),
           ("n - 1", "n - 6", "-1"), ("a % 20", "0", "-2")]
"""(lo, hi[, step]) of a loop: each runs at most about 30 times."""

_CONSTS = ["0", "1", "2", "3", "-1", "7", "100", "1000003", "2147483648", "3037000499",
           "4611686018427387904", "9223372036854775807"]
_DIVISORS = ["1", "2", "3", "7", "-1", "-2", "1000003", "1000"]


class Generator:
    """Source text of random programs (deterministic for a seed)."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def expr(self, names, depth: int) -> str:
        r = self.r
        if depth == 0 or r.random() < 0.25:
            return r.choice(names + names + _CONSTS[:6] + [r.choice(_CONSTS)])
        kind = r.choice(["+", "-", "*", "+", "-", "*", "//", "%", "min", "max", "abs", "neg"])
        x = self.expr(names, depth - 1)
        if kind in ("abs", "neg"):
            return f"abs({x})" if kind == "abs" else f"(-{x})"
        if kind in ("//", "%"):
            y = r.choice(_DIVISORS) if r.random() < 0.7 else self.expr(names, depth - 1)
            return f"({x} {kind} {y})"
        y = self.expr(names, depth - 1)
        return f"{kind}({x}, {y})" if kind in ("min", "max") else f"({x} {kind} {y})"

    def cond(self, names) -> str:
        r = self.r
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        test = f"{self.expr(names, 1)} {op} {self.expr(names, 1)}"
        if r.random() < 0.3:
            test = f"{test} and {r.choice(names)} {r.choice(['<', '>'])} {r.choice(_CONSTS)}"
        return test

    def loop(self, names, var: str, indent: str, depth: int) -> list[str]:
        r = self.r
        bounds = r.choice(_RANGES)
        out = [f"{indent}for {var} in range({', '.join(bounds)}):"]
        inner = indent + "    "
        names = names + [var]
        out.append(f"{inner}x{var} = {self.expr(names, 2)}")
        names = names + [f"x{var}"]
        out.append(f"{inner}if {self.cond(names)}:")
        out.append(f"{inner}    s = {self.expr(names, 3)}")
        out.append(f"{inner}else:")
        out.append(f"{inner}    s = {self.expr(names, 3)}")
        if depth > 0 and r.random() < 0.4:
            out += self.loop(names, "j" if var == "i" else "i2", inner, depth - 1)
        if r.random() < 0.2:
            out.append(f"{inner}if {self.cond(names)}:")
            out.append(f"{inner}    break")
        return out

    def program(self) -> str:
        r = self.r
        names = ["a", "b", "n", "s"]
        lines = ["def f(a: int, b: int, n: int) -> int:",
                 f"    s = {self.expr(['a', 'b', 'n'], 2)}"]
        lines += self.loop(names, "i", "    ", 1)
        if r.random() < 0.5:
            lines += ["    k = a % 10", "    while k < 25:",
                      f"        s = {self.expr(names + ['k'], 2)}",
                      f"        k = k + {r.choice(['1', '2', '3'])}"]
        lines.append(f"    return {self.expr(names, 1)}")
        return "\n".join(lines) + "\n"


_EDGE_OPS = ["{x} * {x}", "{x} + {c}", "{x} - {c}", "{c} - {x}", "{x} * {c}", "-{x}",
             "abs({x})", "{x} // {c}", "{x} + {x}", "{x} * 3", "{x} + 1", "{x} - 1"]


class EdgeGenerator:
    """Programs whose overflow checks are provable or not by one unit: a comparison, a
    loop bound or a constant next to a value where an op starts to overflow."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def const(self) -> str:
        c = self.r.choice(near(CRITICAL))
        return f"({c + 1} - 1)" if c == INT64_MIN else f"({c})" if c < 0 else str(c)

    def op(self, x: str) -> str:
        return self.r.choice(_EDGE_OPS).format(x=x, c=self.const())

    def guard(self, x: str) -> str:
        r = self.r
        test = f"{x} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {self.const()}"
        if r.random() < 0.5:
            test += f" and {x} {r.choice(['<', '<=', '>', '>='])} {self.const()}"
        return f"not ({test})" if r.random() < 0.2 else test

    def program(self) -> str:
        r = self.r
        kind = r.choice(["if", "if", "for", "while"])
        lines = ["def f(a: int, b: int, n: int) -> int:", "    s = 0"]
        if kind == "if":
            lines += [f"    if {self.guard('a')}:", f"        s = {self.op('a')}",
                      "    else:", f"        s = {self.op('a')}"]
        elif kind == "for":
            c = self.const()
            lo, hi = r.choice([("n - 3", "n"), (c, f"{c} + 3"), ("a", "a + 2"),
                               ("n - 2", f"min(n, {c})"), (f"max(n, {c}) - 2", "n")])
            lines += [f"    for i in range({lo}, {hi}):", f"        s = {self.op('i')}"]
        else:
            lines += [f"    k = {r.choice(['a', self.const()])}",
                      f"    while k < {self.const()}:", f"        s = {self.op('k')}",
                      "        k = k + 1", "        if k % 4 == 0:", "            break"]
        lines.append(f"    return s + {self.op('s')} if s < 0 else s")
        return "\n".join(lines) + "\n"
