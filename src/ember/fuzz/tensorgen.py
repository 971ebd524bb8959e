"""Tensor mode: small functions over tensor arguments with valid shapes, run with real
torch tensors under CPython and with numpy arrays under ember.

Every value's shape and dtype are tracked, so each generated op is valid: elementwise
arithmetic with broadcasting, scalar operands, relu/sigmoid/tanh and friends, matmul,
sum/mean/amax with dim, reshape/transpose/permute/t, cat, indexing and slicing,
unsqueeze/squeeze, comparisons with where, dtype conversions. Only operators that
exist in ember.ops (tensor_*.py) are used.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ember.fuzz.tensor_shapes import ShapeProductions

FLOATS = ("float32", "float64")
UNARY = ("torch.relu({})", "torch.sigmoid({})", "torch.tanh({})", "torch.abs({})", "-{}",
         "{}.exp()", "torch.sqrt(torch.abs({}))", "torch.sin(torch.tanh({}))", "{}.floor()",
         "torch.square({})", "{}.clamp(-1.0, 0.5)", "torch.log1p(torch.abs({}))",
         "{}.round()", "torch.sign({})")
INT_UNARY = ("torch.abs({})", "-{}", "torch.relu({})", "torch.square({})")
"""sin only of tanh: float32 rounding differences (a BLAS summation order) in a large
argument would otherwise show up as sin differences far above rtol."""


@dataclass
class TV:
    name: str
    shape: tuple
    dtype: str


@dataclass
class TensorProgram:
    source: str
    cases: list
    """(entry, args) pairs; args are numpy arrays."""
    seed: int = 0

    def reproducer(self) -> str:
        return f"{self.source}\n\n# cases: {self.cases!r}\n"


def _broadcast(a, b):
    """The broadcast shape of a and b, or None."""
    out = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + a),
                    reversed((1,) * (len(a) - len(b)) + b)):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


_ORDER = ("bool", "int64", "float32", "float64")


def _category(dtype: str) -> int:
    return {"bool": 0, "int64": 1}.get(dtype, 2)


def _promote(a: TV, b: TV) -> str:
    """torch's result dtype: a 0-d tensor beside a dimensioned one only counts when it is
    of a higher category (bool < int < float), and then as the default dtype."""
    if (len(a.shape) == 0) != (len(b.shape) == 0):
        dim, zero = (b, a) if len(a.shape) == 0 else (a, b)
        if _category(zero.dtype) <= _category(dim.dtype):
            return dim.dtype
        return "float32" if zero.dtype in FLOATS else zero.dtype
    return max(a.dtype, b.dtype, key=_ORDER.index)


class TensorGen(ShapeProductions):
    def __init__(self, rng: random.Random, zero_dim: bool = False):
        self.rng = rng
        self.zero_dim = zero_dim
        """Allow 0-d results (ember's kernels give numpy scalars for them: a known
        difference, reported, kept out of the default mode)."""
        self.vals: list[TV] = []
        self.lines: list[str] = []

    def new(self, expr: str, shape, dtype) -> TV:
        v = TV(f"v{len(self.lines)}", tuple(shape), dtype)
        self.lines.append(f"    {v.name} = {expr}")
        self.vals.append(v)
        return v

    def pick(self, pred=lambda v: True):
        cands = [v for v in self.vals if pred(v)]
        return self.rng.choice(cands) if cands else None

    # -- productions: each emits one statement or returns False -----------------------------
    def unary(self):
        v = self.pick()
        if v.dtype in FLOATS:
            return self.new(self.rng.choice(UNARY).format(v.name), v.shape, v.dtype)
        if v.dtype == "int64":
            return self.new(self.rng.choice(INT_UNARY).format(v.name), v.shape, v.dtype)
        return self.new(f"{v.name}.float()", v.shape, "float32")

    def scalar(self):
        v = self.pick(lambda v: v.dtype != "bool")
        if v is None:
            return False
        c = self.rng.choice((2.0, 0.5, -1.5, 3, -2, 1))
        form = self.rng.choice(("{v} + {c}", "{v} * {c}", "{v} - {c}", "{c} - {v}",
                                "{c} * {v}", "{v} / {c}"))
        dtype = v.dtype
        if isinstance(c, float) or "/" in form:
            dtype = v.dtype if v.dtype in FLOATS else "float32"
        return self.new(form.format(v=v.name, c=f"({c})"), v.shape, dtype)

    def binary(self):
        a = self.pick(lambda v: v.dtype != "bool")
        if a is None:
            return False
        pairs = [b for b in self.vals if b.dtype != "bool" and _broadcast(a.shape, b.shape)]
        b = self.rng.choice(pairs)
        shape = _broadcast(a.shape, b.shape)
        op = self.rng.choice(("+", "-", "*", "max", "min", "/"))
        dtype = _promote(a, b)
        if op in ("max", "min"):
            fn = "torch.maximum" if op == "max" else "torch.minimum"
            if a.dtype != b.dtype:
                return False
            return self.new(f"{fn}({a.name}, {b.name})", shape, dtype)
        if op == "/":
            dtype = dtype if dtype in FLOATS else "float32"
            return self.new(f"{a.name} / (torch.abs({b.name}) + 1)", shape, dtype)
        return self.new(f"{a.name} {op} {b.name}", shape, dtype)

    def matmul(self):
        a = self.pick(lambda v: len(v.shape) == 2 and v.dtype in FLOATS)
        if a is None:
            return False
        bs = [b for b in self.vals if len(b.shape) == 2 and b.dtype == a.dtype]
        for b in self.rng.sample(bs, len(bs)):
            if b.shape[0] == a.shape[1]:
                return self.new(f"{a.name} @ {b.name}", (a.shape[0], b.shape[1]), a.dtype)
            if b.shape[1] == a.shape[1]:
                return self.new(f"torch.matmul({a.name}, {b.name}.t())",
                                (a.shape[0], b.shape[0]), a.dtype)
        return False

    def reduce(self):
        v = self.pick(lambda v: len(v.shape) >= (1 if self.zero_dim else 2) and
                      v.dtype in FLOATS)
        if v is None:
            return False
        d = self.rng.randrange(len(v.shape))
        keep = self.rng.random() < 0.3
        fn = self.rng.choice(("sum", "mean", "amax"))
        shape = tuple(1 if i == d else s for i, s in enumerate(v.shape)) if keep else \
            v.shape[:d] + v.shape[d + 1:]
        if fn == "amax":
            args = f"dim={d}, keepdim={keep}" if self.rng.random() < 0.5 else f"{d}, {keep}"
            return self.new(f"torch.amax({v.name}, {args})", shape, v.dtype)
        kw = ", keepdim=True" if keep else ""
        return self.new(f"{v.name}.{fn}({d}{kw})", shape, v.dtype)

    def compare(self):
        a = self.pick(lambda v: v.dtype in FLOATS)
        if a is None:
            return False
        op = self.rng.choice((">", "<", ">=", "<=", "==", "!="))
        cond = f"({a.name} {op} {self.rng.choice((0.0, 0.5, -0.25))})"
        r = self.rng.random()
        if r < 0.4:
            return self.new(f"{cond}.float()", a.shape, "float32")
        if r < 0.6:
            return self.new(cond, a.shape, "bool")
        return self.new(f"torch.where({cond}, {a.name}, {a.name} * 0.5)", a.shape, a.dtype)

    def softmax(self):
        v = self.pick(lambda v: len(v.shape) >= 1 and v.dtype in FLOATS)
        if v is None:
            return False
        d = self.rng.randrange(-len(v.shape), len(v.shape))
        fn = self.rng.choice(("torch.softmax", "torch.log_softmax"))
        return self.new(f"{fn}({v.name}, {d})", v.shape, v.dtype)

    def maxdim(self):
        v = self.pick(lambda v: len(v.shape) >= 2 and v.dtype in FLOATS)
        if v is None:
            return False
        d = self.rng.randrange(len(v.shape))
        k = self.rng.randrange(2)
        dtype = v.dtype if k == 0 else "int64"
        fn = self.rng.choice(("max", "min"))
        return self.new(f"{v.name}.{fn}({d})[{k}]", v.shape[:d] + v.shape[d + 1:], dtype)

    def power(self):
        v = self.pick(lambda v: v.dtype in FLOATS)
        if v is None:
            return False
        e = self.rng.choice((2, 3, 0.5, -1))
        base = f"torch.abs({v.name}) + 0.5" if e in (0.5, -1) else v.name
        return self.new(f"({base}) ** {e}", v.shape, v.dtype)

    def intdiv(self):
        v = self.pick(lambda v: v.dtype != "bool")
        if v is None:
            return False
        c = self.rng.choice((2, 3, -2, 1.5))
        op = self.rng.choice(("//", "%"))
        dtype = v.dtype if isinstance(c, int) or v.dtype in FLOATS else "float32"
        return self.new(f"{v.name} {op} ({c})", v.shape, dtype)

    def convert(self):
        v = self.pick()
        to = self.rng.choice(("float", "double", "long"))
        dtype = {"float": "float32", "double": "float64", "long": "int64"}[to]
        return self.new(f"{v.name}.{to}()", v.shape, dtype)

    PRODUCTIONS = (("unary", 4), ("scalar", 3), ("binary", 4), ("matmul", 2), ("reduce", 3),
                   ("reshape", 2), ("transpose", 2), ("cat", 1), ("index", 2),
                   ("unsqueeze", 1), ("compare", 2), ("convert", 1), ("softmax", 1),
                   ("stack", 1), ("maxdim", 1), ("power", 1), ("intdiv", 1))


def random_shape(rng):
    return tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))


def random_array(rng, shape, dtype):
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    if dtype == "int64":
        return nrng.integers(-5, 6, size=shape).astype(np.int64)
    return (nrng.standard_normal(shape) * 2).astype(dtype)


def generate_tensor(seed: int, steps: int = 6, zero_dim: bool = False) -> TensorProgram:
    """One function `t(x0, ...)` of about `steps` tensor statements, with two cases."""
    rng = random.Random(seed)
    g = TensorGen(rng, zero_dim)
    params = []
    shape = random_shape(rng)
    for i in range(rng.randint(1, 3)):
        s = shape if rng.random() < 0.5 else random_shape(rng)
        dtype = rng.choice(("float32", "float32", "float32", "float64", "int64"))
        params.append(TV(f"x{i}", s, dtype))
    g.vals = list(params)
    names, weights = zip(*TensorGen.PRODUCTIONS)
    steps = rng.randint(2, 2 * steps)
    while len(g.lines) < steps:
        getattr(g, rng.choices(names, weights)[0])()
    sig = ", ".join(f"{p.name}: torch.Tensor" for p in params)
    body = "\n".join(g.lines)
    ret = g.vals[-1].name
    source = f"import torch\n\n\ndef t({sig}) -> torch.Tensor:\n{body}\n    return {ret}\n"
    cases = [("t", tuple(random_array(rng, p.shape, p.dtype) for p in params))
             for _ in range(2)]
    return TensorProgram(source, cases, seed)
