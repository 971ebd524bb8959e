"""Grad mode's statements: each production emits into a Body (gradgen.Body).

Blocks (if/else, loops) only reassign values that exist before them, with the same kind
and shape; names a block introduces are dropped from the pool after it."""

from __future__ import annotations

from ember.fuzz import gradgen_tensor as gt
from ember.fuzz.gradgen import V


def weights(tensors: bool, depth: int):
    """(production, weight) pairs for a statement at block depth `depth`."""
    w = [("new_float", 3 if not tensors else 1), ("if_else", 2), ("for_loop", 2),
         ("while_loop", 1), ("call", 1.5), ("recursion", 0.7), ("tuple_", 1),
         ("float_list", 0.8)]
    if tensors:
        w += [("new_tensor", 6), ("tensor_list", 1), ("aug_tensor", 1.5)]
    if depth >= 2:
        w = [(n, x) for n, x in w if n not in ("if_else", "for_loop", "while_loop")]
    return w


def new_float(b, depth):
    name = b.fresh()
    b.emit(f"{name} = {b.float_expr()}")
    b.pool.append(V(name, "float"))


def new_tensor(b, depth):
    if not b.of("tensor"):
        return new_float(b, depth)
    expr, shape = gt.new_tensor(b)
    name = b.fresh()
    b.emit(f"{name} = {expr}")
    b.pool.append(V(name, "tensor", shape))


def aug_tensor(b, depth):
    """A new tensor updated in place (`t += e`, `t -= e`, `t *= e`; the sums also once per
    iteration of a loop): autodiff differentiates the update as `t = t op e`. The tensor
    is a clone (never a view of a parameter) and e does not read it, so torch's autograd
    accepts the update too (it refuses to change a tensor it saved for backward)."""
    if not b.of("tensor"):
        return new_float(b, depth)
    expr, shape = gt.new_tensor(b)
    v = V(b.fresh(), "tensor", shape)
    if not b.of("tensor", shape):  # e needs another tensor of its shape
        b.emit(f"{v.name} = {expr}")
        b.pool.append(v)
        return
    b.emit(f"{v.name} = ({expr}).clone()")
    if b.rng.random() < 0.4:
        i = b.fresh("i")
        b.emit(f"for {i} in range({b.rng.randint(1, 3)}):")
        b.emit(f"    {v.name} {b.rng.choice(['+=', '-='])} {b.bounded_like(v)}")
    else:
        b.emit(f"{v.name} {b.rng.choice(['+=', '-=', '*='])} {b.expr_like(v)}")
    b.pool.append(v)


def _targets(b, k: int):
    cands = [v for v in b.pool if v.kind in ("float", "tensor")]
    return b.rng.sample(cands, min(len(cands), k))


def _block(b, depth, stmts: int, assign) -> None:
    """Indented statements, then the reassignments `assign()`; new names dropped after."""
    before = list(b.pool)
    b.depth += 1
    for _ in range(stmts):
        b.gen.statement(b, depth + 1)
    assign()
    b.depth -= 1
    b.pool = before


def if_else(b, depth):
    targets = _targets(b, b.rng.randint(1, 2))
    b.emit(f"if {b.cond()}:")

    def assign():
        for t in targets:
            b.emit(f"{t.name} = {b.expr_like(t)}")
    _block(b, depth, b.rng.randint(0, 1), assign)
    if b.rng.random() < 0.8:
        b.emit("else:")
        _block(b, depth, b.rng.randint(0, 1), assign)


def for_loop(b, depth):
    targets = _targets(b, b.rng.randint(1, 2))
    i = b.fresh("i")
    b.emit(f"for {i} in range({b.rng.randint(1, 4)}):")

    def assign():
        for t in targets:
            b.pool.append(V(i, "int"))
            e = b.bounded_like(t)
            if t.kind == "float" and b.rng.random() < 0.3:
                e = f"{e} + float({i}) * 0.25"
            b.emit(f"{t.name} = {e}")
    _block(b, depth, b.rng.randint(0, 1), assign)


def while_loop(b, depth):
    targets = _targets(b, b.rng.randint(1, 2))
    k = b.fresh("k")
    b.emit(f"{k} = 0")
    fl = [t for t in targets if t.kind == "float"]
    extra = f" and {fl[0].name} < 5.0" if fl and b.rng.random() < 0.5 else ""
    b.emit(f"while {k} < {b.rng.randint(1, 4)}{extra}:")

    def assign():
        for t in targets:
            b.emit(f"{t.name} = {b.bounded_like(t)}")
        b.emit(f"{k} += 1")
    _block(b, depth, b.rng.randint(0, 1), assign)


def call(b, depth):
    """A helper function taking 1-3 pool values, returning one value or a pair."""
    args = _targets(b, b.rng.randint(1, 3))
    gen = b.gen
    name = gen.fresh("h")
    params = [V(f"a{j}", a.kind, a.shape) for j, a in enumerate(args)]
    hb = gen.body(params, b.rng.randint(1, 3), depth=max(depth, 1))
    outs = _targets(hb, 2 if b.rng.random() < 0.3 else 1)
    exprs = [o.name if b.rng.random() < 0.3 else hb.expr_like(o) for o in outs]
    sig = ", ".join(f"{p.name}: {_ann(p)}" for p in params)
    rtype = _ann(outs[0]) if len(outs) == 1 else \
        f"Tuple[{', '.join(_ann(o) for o in outs)}]"
    gen.helpers.append(f"def {name}({sig}) -> {rtype}:\n" + "\n".join(hb.lines) +
                       f"\n    return {', '.join(exprs)}\n")
    names = [b.fresh() for _ in outs]
    b.emit(f"{', '.join(names)} = {name}({', '.join(a.name for a in args)})")
    b.pool += [V(n, o.kind, o.shape) for n, o in zip(names, outs)]


def _ann(v) -> str:
    return "float" if v.kind == "float" else "Tensor"


def recursion(b, depth):
    """A recursive helper r(x, n): n levels of a bounded step around x."""
    x = _targets(b, 1)[0]
    gen = b.gen
    name = gen.fresh("r")
    p = V("x", x.kind, x.shape)
    hb = gen.body([p], 0, depth=2)
    step = hb.bounded_like(p)
    inner = f"{name}({'x * 0.9' if x.kind == 'float' else 'x'}, n - 1)"
    combine = b.rng.choice(("{r} * {s}", "{r} + {s}", "{s} - 0.5 * {r}"))
    gen.helpers.append(f"def {name}(x: {_ann(p)}, n: int) -> {_ann(p)}:\n"
                       f"    if n <= 0:\n        return x\n"
                       f"    return {combine.format(r=inner, s=f'({step})')}\n")
    out = b.fresh()
    b.emit(f"{out} = {name}({x.name}, {b.rng.randint(0, 3)})")
    b.pool.append(V(out, x.kind, x.shape))


def tuple_(b, depth):
    parts = _targets(b, b.rng.randint(2, 3))
    if len(parts) < 2:
        return new_float(b, depth) if b.floats() else None
    t = b.fresh("t")
    b.emit(f"{t} = ({', '.join(p.name if b.rng.random() < 0.5 else b.expr_like(p) for p in parts)})")
    if b.rng.random() < 0.5:
        names = [b.fresh() for _ in parts]
        b.emit(f"{', '.join(names)} = {t}")
        b.pool += [V(n, p.kind, p.shape) for n, p in zip(names, parts)]
    else:
        j = b.rng.randrange(len(parts))
        name = b.fresh()
        b.emit(f"{name} = {t}[{j}]")
        b.pool.append(V(name, parts[j].kind, parts[j].shape))


def tensor_list(b, depth):
    """A list of same-shaped tensors, built by a literal or by append in a loop, then
    stacked, concatenated, summed or read by index."""
    if not b.of("tensor"):
        return new_float(b, depth)
    x = b.rng.choice(b.of("tensor"))
    ls = b.fresh("ls")
    if b.rng.random() < 0.5:
        others = b.of("tensor", x.shape)
        b.emit(f"{ls} = [{', '.join(v.name for v in b.rng.sample(others, min(3, len(others))))}]")
        n = min(3, len(others))
    else:
        i, h = b.fresh("i"), b.fresh("h")
        n = b.rng.randint(1, 3)
        b.emit(f"{ls}: List[Tensor] = []")
        b.emit(f"{h} = {x.name}")
        b.emit(f"for {i} in range({n}):")
        b.depth += 1
        b.emit(f"{h} = torch.tanh({h} * {b.rng.choice((0.5, 1.5, -1.0))} + {x.name})")
        b.emit(f"{ls}.append({h})")
        b.depth -= 1
    out = b.fresh()
    r = b.rng.random()
    if r < 0.35:
        d = b.rng.randint(0, len(x.shape))
        b.emit(f"{out} = torch.stack({ls}, {d})")
        shape = x.shape[:d] + (n,) + x.shape[d:]
    elif r < 0.6 and x.shape:
        d = b.rng.randrange(len(x.shape))
        b.emit(f"{out} = torch.cat({ls}, {d})")
        shape = x.shape[:d] + (x.shape[d] * n,) + x.shape[d + 1:]
    else:
        b.emit(f"{out} = {ls}[{b.rng.randrange(-n, n)}]")
        shape = x.shape
    b.pool.append(V(out, "tensor", shape))


def float_list(b, depth):
    """A list of floats, by a literal or by append in a loop, read by index or by
    iterating over it."""
    fl = b.floats()
    if not fl:
        return new_float(b, depth)
    ls = b.fresh("fs")
    if b.rng.random() < 0.5:
        items = [v.name if b.rng.random() < 0.5 else b.float_expr() for v in
                 b.rng.sample(fl, min(3, len(fl)))]
        b.emit(f"{ls} = [{', '.join(items)}]")
        n = len(items)
    else:
        x, i, h = b.rng.choice(fl), b.fresh("i"), b.fresh("h")
        n = b.rng.randint(1, 3)
        b.emit(f"{ls}: List[float] = []")
        b.emit(f"{h} = {x.name}")
        b.emit(f"for {i} in range({n}):")
        b.depth += 1
        b.emit(f"{h} = math.tanh({h} * {b.rng.choice((0.5, 1.5, -1.0))} + {x.name})")
        b.emit(f"{ls}.append({h})")
        b.depth -= 1
    out = b.fresh()
    if b.rng.random() < 0.5:
        b.emit(f"{out} = {ls}[{b.rng.randrange(-n, n)}]")
    else:
        v = b.fresh("e")
        b.emit(f"{out} = 0.0")
        b.emit(f"for {v} in {ls}:")
        b.emit(f"    {out} = {out} + math.sin({v}) * {v}")
    b.pool.append(V(out, "float"))
