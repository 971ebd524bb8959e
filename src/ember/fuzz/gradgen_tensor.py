"""Grad mode's tensor expressions: every one valid for the tracked shapes, over the
operators that have derivative rules. `same_shape` keeps a value's shape (for
reassignment in branches and loops), `new_tensor` may change it, `result` is the scalar
loss a tensor program returns."""

from __future__ import annotations

UNARY = ("torch.tanh({})", "torch.sigmoid({})", "torch.relu({})", "torch.sin({})",
         "torch.cos({})", "torch.exp(torch.tanh({}))", "torch.abs({})", "{0} * {0}",
         "torch.sqrt({0} * {0} + 1.0)", "torch.log({0} * {0} + 1.0)",
         "torch.log1p(torch.abs({}))", "F.softplus({})", "F.gelu({})", "F.silu({})",
         "F.elu({})", "F.leaky_relu({}, 0.1)", "F.hardswish({})", "F.mish({})", "F.selu({})",
         "F.celu({})", "torch.clamp({}, -1.0, 1.0)", "{}.clamp(min=-0.5)", "torch.square({})",
         "{}.pow(2)", "torch.atan({})", "torch.erf({})", "torch.rsqrt({0} * {0} + 1.0)",
         "torch.reciprocal({0} * {0} + 1.0)", "torch.asinh({})", "F.logsigmoid({})",
         "F.softsign({})", "F.tanhshrink({})", "F.hardtanh({})", "-{}",
         "torch.expm1(torch.tanh({}))", "torch.sinh(torch.tanh({}))",
         "torch.cosh(torch.tanh({}))", "F.gelu({}, approximate='tanh')", "{}.exp().tanh()",
         "torch.pow(torch.abs({}) + 0.5, 1.5)", "F.relu6({} * 3.0)", "F.hardsigmoid({})")
DIM_UNARY = ("torch.softmax({x}, {d})", "torch.log_softmax({x}, {d})", "torch.cumsum({x}, {d})",
             "torch.flip({x}, [{d}])", "torch.roll({x}, 1, {d})", "F.normalize({x}, dim={d})",
             "F.softmax({x}, dim={d})", "{x} - {x}.mean({d}, keepdim=True)",
             "{x} / ({x}.norm(dim={d}, keepdim=True) + 1.0)", "torch.msort({x})",
             "torch.diff({x}, dim={d}, prepend={x}.narrow({d}, 0, 1))",
             "torch.diff({x}, n=2, dim={d}, prepend={x}.narrow({d}, 0, 1), "
             "append=torch.tanh({x}.narrow({d}, 0, 1)))")
BINARY = ("{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / ({b} * {b} + 1.0)",
          "torch.maximum({a}, {b})", "torch.minimum({a}, {b})",
          "torch.where({b} > 0.0, {a}, {b})", "torch.atan2({a}, {b} * {b} + 1.0)",
          "torch.addcmul({a}, {b}, {b}, value=0.5)", "torch.hypot({a}, {b})",
          "torch.pow(torch.abs({a}) + 0.5, torch.tanh({b}))", "{a}.masked_fill({b} > 0.5, 0.25)")
SCALAR = ("{a} * {s}", "{a} + {s}", "{s} - {a}", "{a} / (1.0 + {s} * {s})", "{a} * 2.0",
          "{a} - 0.5", "{a} ** 3", "0.5 ** {a}")
REDUCE = ("{x}.sum({d})", "{x}.mean({d})", "torch.amax({x}, {d})", "torch.logsumexp({x}, {d})",
          "{x}.var({d})", "{x}.std({d})", "{x}.prod({d})", "{x}.norm(dim={d})",
          "{x}.max({d})[0]", "{x}.min({d})[0]", "torch.amin({x}, {d})", "{x}.sum({d}, keepdim=True)",
          "{x}.mean({d}, keepdim=True)", "{x}.var({d}, unbiased=False)")
LOSSES = ("F.mse_loss({a}, {b})", "F.l1_loss({a}, {b})", "F.smooth_l1_loss({a}, {b})",
          "F.huber_loss({a}, {b}, delta=0.5)",
          "F.binary_cross_entropy_with_logits({a}, torch.sigmoid({b}))",
          "F.binary_cross_entropy(torch.sigmoid({a}), torch.sigmoid({b}))",
          "F.mse_loss({a}, {b}, reduction='sum')")
LOSSES_2D = ("F.cross_entropy({a}, torch.argmax({b}, 1))",
             "F.nll_loss(F.log_softmax({a}, 1), torch.argmax({b}, 1))",
             "F.cross_entropy({a}, torch.argmax({b}, 1), label_smoothing=0.1)",
             "F.kl_div(F.log_softmax({a}, -1), F.softmax({b}, -1), reduction='batchmean')")


def random_shape(rng, dims) -> tuple:
    return tuple(rng.choice(dims) for _ in range(rng.randint(1, 3)))


def _broadcasts_into(small: tuple, big: tuple) -> bool:
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big)))


def same_shape(b, v, depth: int = 0) -> str:
    """An expression with v's shape, from pool values."""
    rng = b.rng
    same = b.of("tensor", v.shape) or [v]
    x = rng.choice(same).name
    if depth < 1 and rng.random() < 0.3:
        x = f"({same_shape(b, v, depth + 1)})"
    r = rng.random()
    if r < 0.35:
        return rng.choice(UNARY).format(x)
    if r < 0.5 and v.shape:
        if len(v.shape) >= 3 and rng.random() < 0.1:
            return f"F.local_response_norm({x}, {rng.randint(1, 4)}, alpha=0.5)"
        d = rng.randrange(-len(v.shape), len(v.shape))
        return rng.choice(DIM_UNARY).format(x=x, d=d)
    if r < 0.8:
        others = [w for w in b.of("tensor") if _broadcasts_into(w.shape, v.shape)]
        y = rng.choice(others).name
        a, c = (x, y) if rng.random() < 0.7 else (y, x)
        if "where" in (form := rng.choice(BINARY)) or "masked" in form or "addcmul" in form:
            a, c = x, y  # the result's shape comes from the first operand there
        return form.format(a=a, b=c)
    if r < 0.9 and len(v.shape) == 2:
        mm = _matmul_into(b, v.shape)
        if mm:
            return mm
    fl = b.floats()
    s = rng.choice(fl).name if fl else "1.5"
    form = rng.choice(SCALAR)
    if "**" in form:
        x = f"torch.tanh({x})"
    return form.format(a=x, s=s)


def _matmul_into(b, shape) -> str | None:
    m, n = shape
    for a in b.rng.sample(b.of("tensor"), len(b.of("tensor"))):
        if len(a.shape) == 2 and a.shape[0] == m:
            k = a.shape[1]
            for w in b.of("tensor"):
                if w.shape == (k, n):
                    return b.rng.choice(("{} @ {}", "torch.mm({}, {})",
                                         "torch.matmul({}, {})")).format(a.name, w.name)
                if w.shape == (n, k):
                    return f"F.linear({a.name}, {w.name})"
    return None


def new_tensor(b):
    """(expression, shape) of a new tensor value."""
    rng = b.rng
    x = rng.choice(b.of("tensor"))
    for _ in range(6):
        kind = rng.choice(("reduce", "reshape", "permute", "index", "join", "split",
                           "matmul", "same", "same", "norm", "expand", "contract"))
        made = globals()["_" + kind](b, x)
        if made:
            return made
    return same_shape(b, x), x.shape


def _same(b, x):
    return same_shape(b, x), x.shape


def _reduce(b, x):
    if not x.shape:
        return None
    d = b.rng.randrange(len(x.shape))
    form = b.rng.choice(REDUCE)
    keep = "keepdim" in form
    shape = x.shape[:d] + ((1,) if keep else ()) + x.shape[d + 1:]
    if "prod" in form:
        return f"torch.tanh({x.name}).prod({d})", shape
    return form.format(x=x.name, d=d), shape


def _reshape(b, x):
    n = 1
    for s in x.shape:
        n *= s
    shapes = [(n,), (-1,)] + [(p, n // p) for p in (2, 3, 4) if n % p == 0 and n // p > 1]
    shape = b.rng.choice(shapes)
    real = (n,) if shape == (-1,) else shape
    form = "{}.reshape({})"  # view: torch refuses it on a transposed tensor
    if shape == (n,) and b.rng.random() < 0.3:
        return f"{x.name}.flatten()", real
    return form.format(x.name, ", ".join(map(str, shape))), real


def _permute(b, x):
    r = len(x.shape)
    if r < 2:
        return _unsqueeze(b, x)
    if r == 2 and b.rng.random() < 0.5:
        return f"{x.name}.t()", (x.shape[1], x.shape[0])
    i, j = b.rng.sample(range(r), 2)
    if b.rng.random() < 0.5:
        s = list(x.shape)
        s[i], s[j] = s[j], s[i]
        return f"{x.name}.transpose({i}, {j})", tuple(s)
    perm = b.rng.sample(range(r), r)
    return f"{x.name}.permute({', '.join(map(str, perm))})", tuple(x.shape[p] for p in perm)


def _unsqueeze(b, x):
    d = b.rng.randint(0, len(x.shape))
    return f"{x.name}.unsqueeze({d})", x.shape[:d] + (1,) + x.shape[d:]


def _index(b, x):
    if not x.shape:
        return None
    rng = b.rng
    r = rng.random()
    n0 = x.shape[0]
    if r < 0.25:
        i = rng.randrange(-n0, n0)
        return f"{x.name}[{i}]", x.shape[1:]
    if r < 0.5:
        lo = rng.randrange(n0)
        return f"{x.name}[{lo}:]", (n0 - lo,) + x.shape[1:]
    d = rng.randrange(len(x.shape))
    n = x.shape[d]
    if r < 0.7:
        k = rng.randint(1, n)
        return f"{x.name}.narrow({d}, {n - k}, {k})", x.shape[:d] + (k,) + x.shape[d + 1:]
    if r < 0.85 and len(x.shape) >= 2:
        j = rng.randrange(x.shape[1])
        return f"{x.name}[:, {j}]", x.shape[:1] + x.shape[2:]
    return f"{x.name}.select({d}, {rng.randrange(n)})", x.shape[:d] + x.shape[d + 1:]


def _join(b, x):
    if not x.shape:
        return None
    others = b.of("tensor", x.shape)
    y = b.rng.choice(others).name
    if b.rng.random() < 0.5:
        d = b.rng.randrange(len(x.shape))
        s = x.shape[:d] + (2 * x.shape[d],) + x.shape[d + 1:]
        return f"torch.cat([{x.name}, {y}], {d})", s
    d = b.rng.randint(0, len(x.shape))
    return f"torch.stack([{x.name}, {y}], {d})", x.shape[:d] + (2,) + x.shape[d:]


def _split(b, x):
    if not x.shape:
        return None
    d = b.rng.randrange(len(x.shape))
    n = x.shape[d]
    rest = x.shape[:d], x.shape[d + 1:]
    r = b.rng.random()
    if r < 0.4 and n % 2 == 0:
        j = b.rng.randrange(2)
        return f"{x.name}.chunk(2, {d})[{j}]", rest[0] + (n // 2,) + rest[1]
    if r < 0.7:
        return f"torch.unbind({x.name}, {d})[{b.rng.randrange(n)}]", rest[0] + rest[1]
    return f"{x.name}.split(1, {d})[{b.rng.randrange(n)}]", rest[0] + (1,) + rest[1]


def _matmul(b, x):
    rng = b.rng
    ts = b.of("tensor")
    if not x.shape:
        return None
    if len(x.shape) == 1:
        for y in ts:
            if y.shape == x.shape and rng.random() < 0.5:
                return rng.choice(((f"torch.dot({x.name}, {y.name})", ()),
                                   (f"torch.outer({x.name}, {y.name})", x.shape * 2)))
            if len(y.shape) == 2 and y.shape[1] == x.shape[0]:
                return f"torch.mv({y.name}, {x.name})", y.shape[:1]
        return None
    if len(x.shape) == 3:
        for y in ts:
            if len(y.shape) == 3 and y.shape[0] == x.shape[0] and y.shape[1] == x.shape[2]:
                return f"torch.bmm({x.name}, {y.name})", x.shape[:2] + y.shape[2:]
    for y in ts:
        if len(y.shape) == 2 and y.shape[0] == x.shape[-1]:
            return f"{x.name} @ {y.name}", x.shape[:-1] + y.shape[1:]
        if len(y.shape) == 2 and y.shape[1] == x.shape[-1] and len(x.shape) == 2:
            return f"torch.matmul({x.name}, {y.name}.t())", x.shape[:1] + y.shape[:1]
    return None


def _contract(b, x):
    """torch.tensordot of x with a pool tensor over one or two pairs of equal dims."""
    for y in b.rng.sample(b.of("tensor"), len(b.of("tensor"))):
        pairs = [(i, j) for i, n in enumerate(x.shape) for j, m in enumerate(y.shape) if n == m]
        if not pairs or len(x.shape) + len(y.shape) > 6:
            continue
        i, j = b.rng.choice(pairs)
        free = tuple(n for k, n in enumerate(x.shape) if k != i) + \
            tuple(m for k, m in enumerate(y.shape) if k != j)
        if len(free) > 4:
            continue
        if i == len(x.shape) - 1 and j == 0 and b.rng.random() < 0.5:
            return f"torch.tensordot({x.name}, {y.name}, 1)", free
        return f"torch.tensordot({x.name}, {y.name}, ([{i}], [{j}]))", free
    return None


def _norm(b, x):
    if not x.shape:
        return None
    last = x.shape[-1]
    ws = [w for w in b.of("tensor", (last,))]
    if ws and b.rng.random() < 0.5:
        w = b.rng.choice(ws).name
        return f"F.layer_norm({x.name}, [{last}], {w}, {w} * 0.5)", x.shape
    return f"F.layer_norm({x.name}, [{last}])", x.shape


def _expand(b, x):
    if len(x.shape) > 2:
        return None
    k = b.rng.randint(2, 3)
    return f"{x.name}.expand({k}, {', '.join(map(str, x.shape))})", (k,) + x.shape


def result(b) -> str:
    """The program's scalar: a sum of 1-3 terms (losses and reductions) and maybe a
    float; always a 0-d tensor."""
    rng = b.rng
    ts = b.of("tensor")
    picks = [ts[-1]] + rng.sample(ts, min(len(ts), rng.randint(0, 2)))
    terms = [_term(b, t) for t in picks]
    if b.floats() and rng.random() < 0.4:
        terms.append(rng.choice(b.floats()).name)
    return " + ".join(terms)


def _term(b, t) -> str:
    rng = b.rng
    r = rng.random()
    if r < 0.4:
        return rng.choice(("{0}.sum()", "({0} * {0}).mean()", "torch.tanh({0}).sum()",
                           "{0}.pow(2).sum()", "{0}.mean()", "torch.sigmoid({0}).sum()",
                           "{0}.abs().sum()", "torch.logsumexp({0}.reshape(-1), 0)",
                           "{0}.norm()", "{0}.var()" if t.shape and _numel(t) > 1 else "{0}.sum()",
                           "{0}.amax()" if t.shape else "{0}.sum()")).format(t.name)
    other = rng.choice(b.of("tensor", t.shape)).name
    if len(t.shape) == 2 and r < 0.65:
        return rng.choice(LOSSES_2D).format(a=t.name, b=other)
    return rng.choice(LOSSES).format(a=t.name, b=other)


def _numel(t) -> int:
    n = 1
    for s in t.shape:
        n *= s
    return n
