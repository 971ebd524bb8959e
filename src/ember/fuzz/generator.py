"""The program generator: `generate(seed)` -> a Program of 2-4 typed functions and the
cases to run them on.

Each function declares its locals with annotations first (so every variable is
defined on every path with one type), may define a lambda and a nested def over its
parameters, then runs generated statements and returns a value of its return type.
Functions call earlier ones (a DAG) and, when marked recursive, themselves with a
decreasing `depth` argument. Calls inside loops go only to cheap functions (no loops,
no calls, no mutation), so a program's running time stays small.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass, field

from ember.fuzz.astutil import const, name
from ember.fuzz.gen_container import _lambda_args
from ember.fuzz.gen_expr import ExprGen
from ember.fuzz.gen_flow import StmtGen
from ember.fuzz.gtypes import (
    BOOL,
    FLOAT,
    INT,
    NATIVE,
    STR,
    allowed,
    native,
    ann,
    literal,
    random_type,
    random_value,
)
from ember.fuzz.scope import Ctx, FnSig, Var

HEADER = "from typing import Dict, List, Optional, Tuple\nimport math\n\n\n"
"""The first lines of every generated program."""


@dataclass
class Program:
    """A generated program: its module AST, source text and cases."""

    tree: ast.Module
    cases: list = field(default_factory=list)
    """(entry name, args tuple) pairs."""
    seed: int = 0
    profile: str = "full"

    @property
    def source(self) -> str:
        return render(self.tree)

    def reproducer(self) -> str:
        """The program as a corpus-style file: source, then CASES."""
        cases = ",\n         ".join(f"({e!r}, {literal(tuple(a))})" for e, a in self.cases)
        return f"{self.source}\n\n\nCASES = [{cases}]\n"


def render(tree: ast.Module) -> str:
    consts = [ast.unparse(a) for a in tree.body if not isinstance(a, ast.FunctionDef)]
    defs = [ast.unparse(f) for f in tree.body if isinstance(f, ast.FunctionDef)]
    head = "\n".join(consts) + "\n\n\n" if consts else ""
    return HEADER + head + "\n\n\n".join(defs) + "\n"


PROFILES = ("full", "native")
"""full: every construct the generator knows. native: only what the LLVM backend compiles
natively (int, float, bool, lists, tuples, Optional; no str, dict or try), so that most
of its programs run natively under backend="llvm"."""


def generate(seed: int, size: int = 12, profile: str = "full") -> Program:
    """A deterministic program for `seed`; `size` is about the statements per function."""
    if profile not in PROFILES:
        raise ValueError(f"unknown generator profile {profile!r}")
    rng = random.Random(seed)
    token = NATIVE.set(profile == "native")
    try:
        for attempt in range(20):
            prog = _program(rng, size)
            try:
                compile(prog.source, "<fuzz>", "exec")
            except SyntaxError:  # e.g. quotes an f-string cannot hold; draw again
                continue
            prog.seed = seed
            prog.profile = profile
            return prog
    finally:
        NATIVE.reset(token)
    raise RuntimeError(f"generator found no valid program for seed {seed}")


SMALL_VALUES = {INT: (0, 1, -3, 7, 250), FLOAT: (0.5, -2.0, 1e-3, 0.0),
                STR: ("", "ab", "é,x"), BOOL: (True, False)}
"""Values for parameter defaults and module constants."""


def _program(rng, size) -> Program:
    consts = _module_constants(rng)
    fns, defs = [], []
    for i in range(rng.randint(2, 4)):
        fdef, sig = gen_function(rng, f"f{i}", fns, size, [v for v, _ in consts])
        defs.append(fdef)
        fns.append(sig)
    tree = ast.Module(body=[a for _, a in consts] + defs, type_ignores=[])
    ast.fix_missing_locations(tree)
    cases = []
    for sig in fns[-2:]:
        for _ in range(rng.randint(2, 3)):
            args = [rng.randint(0, 4) if sig.recursive and j == 0 else random_value(rng, t)
                    for j, (_, t) in enumerate(sig.params)]
            while args and sig.params[len(args) - 1][0] in sig.defaults and rng.random() < 0.5:
                args.pop()
            cases.append((sig.name, tuple(args)))
    return Program(tree, cases)


def _module_constants(rng) -> list:
    """(Var, assignment) pairs of module-level constants the functions may read."""
    out = []
    for i in range(rng.choice((0, 0, 1, 2))):
        t = rng.choice(allowed((INT, STR, FLOAT)))
        v = Var(f"K{i}", t, capturable=True)
        node = ast.Assign(targets=[ast.Name(id=v.name, ctx=ast.Store())],
                          value=ast.Constant(rng.choice(SMALL_VALUES[t])), lineno=0)
        out.append((v, node))
    return out


def gen_function(rng, fname: str, fns: list, size: int, consts=()):
    """One function definition and its signature."""
    params = [(f"p{j}", random_type(rng)) for j in range(rng.randint(1, 4))]
    recursive = rng.random() < 0.2
    if recursive:
        params.insert(0, ("depth", INT))
    defaults = {}
    for n, t in reversed(params):
        if t not in SMALL_VALUES or n == "depth" or rng.random() < 0.7:
            break
        defaults[n] = rng.choice(SMALL_VALUES[t])
    ret = random_type(rng)
    sig = FnSig(fname, params, ret, recursive=recursive, defaults=defaults)
    ctx = Ctx(rng, list(fns), current=sig, stmts_left=rng.randint(size // 2, size),
              risk=rng.choice((0.0, 0.05, 0.15, 0.3)))
    for v in consts:
        ctx.add(v)
    for n, t in params:
        ctx.add(Var(n, t, capturable=True))
    x = ExprGen(ctx)
    st = StmtGen(ctx, x)
    body = _declarations(ctx, x) + _closures(ctx, x)
    if recursive:
        base = ast.Return(value=x.stored(ret, 1))
        test = ast.Compare(left=name("depth"), ops=[ast.LtE()], comparators=[ast.Constant(0)])
        body.append(ast.If(test=test, body=[base], orelse=[]))
        ctx.self_calls = True
    body += st.block(ctx.stmts_left, 0)
    body.append(ast.Return(value=x.stored(ret, 2)))
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n, annotation=ann(t))
                                               for n, t in params],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                         defaults=[const(defaults[n]) for n, _ in params if n in defaults])
    fdef = ast.FunctionDef(name=fname, args=args, body=body, decorator_list=[],
                           returns=ann(ret), lineno=0)
    sig.cheap = _is_cheap(fdef, {f.name for f in fns} | {fname})
    return fdef, sig


def _declarations(ctx, x) -> list:
    out = []
    for j in range(ctx.rng.randint(1, 4)):
        t = random_type(ctx.rng)
        value = x.stored(t, 1)
        v = ctx.add(Var(f"v{j}", t, mutable=True))
        out.append(ast.AnnAssign(target=ast.Name(id=v.name, ctx=ast.Store()),
                                 annotation=ann(t), value=value, simple=1))
    return out


def _closures(ctx, x) -> list:
    """A lambda and/or a nested def over the parameters, bound once."""
    out = []
    for kind_ in ("lambda", "def"):
        if ctx.rng.random() < 0.3:
            out.append(_closure(ctx, x, kind_))
    return out


def _closure(ctx, x, kind_):
    rng = ctx.rng
    ptypes = tuple(rng.choice(allowed((INT, FLOAT, STR, BOOL)))
                   for _ in range(rng.randint(1, 2)))
    ret = rng.choice(allowed((INT, FLOAT, STR, BOOL)))
    pnames = [ctx.fresh("q") for _ in ptypes]
    fname = ctx.fresh("lam" if kind_ == "lambda" else "inner")
    ctx.in_closure = True
    ctx.push()
    for n, t in zip(pnames, ptypes):
        ctx.add(Var(n, t, capturable=True))
    value = x.stored(ret, 2)
    ctx.pop()
    ctx.in_closure = False
    ctx.add(Var(fname, ("fn", ptypes, ret)))
    if kind_ == "lambda":
        return ast.Assign(targets=[ast.Name(id=fname, ctx=ast.Store())],
                          value=ast.Lambda(args=_lambda_args(pnames), body=value), lineno=0)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n, annotation=ann(t))
                                               for n, t in zip(pnames, ptypes)],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=fname, args=args, body=[ast.Return(value=value)],
                           decorator_list=[], returns=ann(ret), lineno=0)


def _is_cheap(fdef, fn_names) -> bool:
    """No loops, no comprehensions, no calls of generated functions, no mutation."""
    for n in ast.walk(fdef):
        if isinstance(n, (ast.For, ast.While, ast.ListComp, ast.DictComp, ast.Delete,
                          ast.AugAssign)):
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in fn_names:
            return False
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call):
            return False
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets):
            return False
    return True

