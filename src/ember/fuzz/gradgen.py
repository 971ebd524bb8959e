"""Grad mode's programs: random differentiable functions `f(...)` returning a float (scalar
programs) or a 0-d float64 tensor (tensor programs), with helper functions.

Values are floats and float64 tensors whose shapes are tracked, so every op is valid:
arithmetic and math functions, if/else on data, for and while loops carrying values,
calls to helpers (a recursive one too), tuples, lists of tensors (built by `append` in a
loop too), and the tensor operators that have derivative rules (elementwise math and
activations, broadcasting binaries, matmul/linear, reductions, reshape/permute/
transpose, cat/stack/chunk/unbind, indexing and slicing, softmax, layer_norm, losses).
Expressions are kept bounded (tanh inside exp, 1 + x*x under log and division) so that
finite differences stay meaningful.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ember.fuzz import gradgen_tensor as gt

HEADER = "import math\nfrom typing import List, Tuple\n"
TORCH_HEADER = "import torch\nimport torch.nn.functional as F\nfrom torch import Tensor\n"

FLOAT_UNARY = ("math.sin({a})", "math.cos({a})", "math.tanh({a})", "math.exp(math.tanh({a}))",
               "math.log(1.0 + {a} * {a})", "math.sqrt(1.0 + {a} * {a})", "math.atan({a})",
               "{a} * {a}", "math.erf({a})", "-{a}", "({a} * 0.5 + 1.0)", "abs({a})",
               "math.asinh({a})", "math.sinh(math.tanh({a}))", "math.log1p({a} * {a})",
               "math.pow(1.5 + math.sin({a}), 1.5)")
FLOAT_BINARY = ("{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / (1.0 + {b} * {b})",
                "math.atan2({a}, 1.0 + {b} * {b})", "math.hypot({a}, {b})",
                "({a} if {a} > {b} else {b} * 0.5)", "math.tanh({a} * {b})",
                "{a} * math.cos({b})", "(1.0 + {a} * {a}) ** math.tanh({b})")


@dataclass
class V:
    name: str
    kind: str
    """"float", "tensor" or "int"."""
    shape: tuple = ()


@dataclass
class GradProgram:
    source: str
    params: list
    """The entry's parameters (V; a tuple parameter has kind "tuple" and shape = parts)."""
    tensors: bool
    seed: int = 0
    cases: list = field(default_factory=list)
    """Argument tuples (floats, float64 numpy arrays, tuples of them)."""

    def reproducer(self) -> str:
        return f"{self.source}\n# seed: {self.seed}\n# cases: {self.cases!r}\n"


class Body:
    """The statements of one function: a pool of live values and indented lines."""

    def __init__(self, gen, params):
        self.gen = gen
        self.rng = gen.rng
        self.pool: list[V] = list(params)
        self.lines: list[str] = []
        self.depth = 1

    def emit(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def fresh(self, prefix="v") -> str:
        return self.gen.fresh(prefix)

    def of(self, kind, shape=None):
        return [v for v in self.pool if v.kind == kind and (shape is None or v.shape == shape)]

    def floats(self):
        return self.of("float")

    # -- float expressions -----------------------------------------------------------------
    def float_expr(self, depth: int = 0) -> str:
        fl = self.floats()
        r = self.rng.random()
        if not fl:
            return "0.5"  # float(tensor) detaches in torch: gradients do not flow through it
        a = self.rng.choice(fl).name if depth > 1 or r < 0.5 else f"({self.float_expr(depth + 1)})"
        if self.rng.random() < 0.45:
            return self.rng.choice(FLOAT_UNARY).format(a=a)
        b = self.rng.choice(fl).name
        if self.rng.random() < 0.5:
            a, b = b, a
        return self.rng.choice(FLOAT_BINARY).format(a=a, b=b)

    def cond(self) -> str:
        fl = self.floats()
        if self.of("tensor") and (not fl or self.rng.random() < 0.5):
            t = self.rng.choice(self.of("tensor"))
            # not 0 or whole numbers: a normalized or softmaxed value sums to those exactly
            # in theory, and rounding may fall on either side in two engines
            return f"bool({t.name}.sum() > {self.rng.choice((0.37, -0.61, 0.13))})"
        a, b = self.rng.choice(fl).name, self.rng.choice(fl).name
        return f"{a} {self.rng.choice(('>', '<', '>=', '<='))} {b} * 0.5"

    # -- values of a given kind ---------------------------------------------------------
    def expr_like(self, v: V) -> str:
        """An expression of v's kind and shape (for reassignment in branches and loops)."""
        if v.kind == "float":
            return self.float_expr()
        return gt.same_shape(self, v)

    def bounded_like(self, v: V) -> str:
        """expr_like kept bounded (loop bodies run it repeatedly)."""
        if v.kind == "float":
            return f"math.tanh({self.float_expr()})"
        return f"torch.tanh({gt.same_shape(self, v)})"


class GradGen:
    def __init__(self, rng: random.Random, tensors: bool):
        self.rng = rng
        self.tensors = tensors
        self.helpers: list[str] = []
        self.counter = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def body(self, params, steps: int, depth: int = 0) -> Body:
        b = Body(self, params)
        for _ in range(steps):
            self.statement(b, depth)
        return b

    def statement(self, b: Body, depth: int) -> None:
        from ember.fuzz import gradgen_stmt as gs

        names, weights = zip(*gs.weights(self.tensors, depth))
        getattr(gs, self.rng.choices(names, weights)[0])(b, depth)


def _params(rng, tensors: bool) -> list:
    params = []
    if tensors:
        dims = [rng.randint(2, 4) for _ in range(3)]
        for i in range(rng.randint(1, 3)):
            params.append(V(f"x{i}", "tensor", gt.random_shape(rng, dims)))
        for i in range(rng.randint(0, 2)):
            params.append(V(f"s{i}", "float"))
    else:
        for i in range(rng.randint(1, 3)):
            params.append(V(f"x{i}", "float"))
    if rng.random() < 0.2:
        parts = (params[0], V("", "float"))
        params.append(V("tp", "tuple", parts))
    return params


def _annotation(p: V) -> str:
    if p.kind == "tuple":
        return "Tuple[" + ", ".join(_annotation(q) for q in p.shape) + "]"
    return {"float": "float", "tensor": "Tensor", "int": "int"}[p.kind]


def _unpack_tuples(b: Body, params) -> None:
    for p in params:
        if p.kind == "tuple":
            names = [b.fresh("u") for _ in p.shape]
            b.emit(f"{', '.join(names)} = {p.name}")
            b.pool += [V(n, q.kind, q.shape) for n, q in zip(names, p.shape)]


def generate_grad(seed: int, tensors: bool | None = None, steps: int = 6) -> GradProgram:
    """One module with `f(...)` and its helpers; `tensors` None: chosen by the seed."""
    rng = random.Random(seed)
    if tensors is None:
        tensors = rng.random() < 0.6
    gen = GradGen(rng, tensors)
    params = _params(rng, tensors)
    b = Body(gen, [p for p in params if p.kind != "tuple"])
    _unpack_tuples(b, params)
    for _ in range(rng.randint(2, steps)):
        gen.statement(b, 0)
    ret = gt.result(b) if tensors else _float_result(b)
    sig = ", ".join(f"{p.name}: {_annotation(p)}" for p in params)
    rtype = "Tensor" if tensors else "float"
    header = HEADER + (TORCH_HEADER if tensors else "")
    src = "\n\n".join([header] + gen.helpers + [
        f"def f({sig}) -> {rtype}:\n" + "\n".join(b.lines) + f"\n    return {ret}\n"])
    prog = GradProgram(src, params, tensors, seed)
    prog.cases = [tuple(_arg(rng, p) for p in params) for _ in range(2)]
    return prog


def _float_result(b: Body) -> str:
    fl = b.floats()
    picks = b.rng.sample(fl, min(len(fl), b.rng.randint(1, 3)))
    return " + ".join(v.name for v in picks)


def _arg(rng, p: V):
    import numpy as np

    if p.kind == "tuple":
        return tuple(_arg(rng, q) for q in p.shape)
    if p.kind == "float":
        return round(rng.uniform(-1.5, 1.5), 6)
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    return nrng.standard_normal(p.shape)
