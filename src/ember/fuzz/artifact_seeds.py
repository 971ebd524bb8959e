"""The real artifacts the artifact fuzzer mutates, with the calls to run on each.

    scalars    recursion, strings, lists, dicts, exceptions, closures, a class
    tensors    functions over numpy arrays compiled from torch-style source
    weights    functions using constant tensors (module tensors written by lowering)
    gen<N>     a few generated programs (the program generator's fixed seeds)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SCALARS = '''
from typing import Dict, List, Optional, Tuple


class Acc:
    def __init__(self, start: int):
        self.total = start

    def add(self, x: int) -> int:
        self.total += x
        return self.total


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def words(s: str, sep: str = " ") -> Dict[str, int]:
    out: Dict[str, int] = {}
    for w in s.split(sep):
        out[w.strip().lower()] = out.get(w, 0) + len(w)
    return out


def safe_div(xs: List[int], d: int) -> Tuple[List[float], str]:
    try:
        return [x / d for x in xs if x % 2 == 0], "ok"
    except ZeroDivisionError as e:
        return [], f"error: {e}"
    finally:
        xs.append(d)


def pick(xs: List[str], i: int, default: Optional[str] = None) -> str:
    k = 0
    while k < len(xs):
        if k == i:
            return xs[k].upper()
        k += 1
    else:
        k = -1
    if default is None:
        raise IndexError(f"no item {i} ({k})")
    return default


def acc(xs: List[int]) -> int:
    a = Acc(len(xs))
    scale = 3
    f = lambda v: v * scale
    for x in xs:
        a.add(f(x))
    return a.total
'''
SCALAR_CASES = [("fib", (12,)), ("words", ("a bb a ccc",)), ("words", ("x,y", ",")),
                ("safe_div", ([1, 2, 4], 2)), ("safe_div", ([2], 0)),
                ("pick", (["a", "b"], 1)), ("pick", (["a"], 3)), ("pick", (["a"], 3, "z")),
                ("acc", ([1, 2, 3],))]

TENSORS = '''
import torch


def mlp(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = torch.relu(x @ w)
    return torch.sigmoid(h.sum(1)) + h.mean()


def reshape(x: torch.Tensor) -> torch.Tensor:
    y = x.reshape(3, 2).t()
    return torch.cat([y, y * 2.0], 0)[1:, :]
'''


def _tensor_cases():
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    w = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    return [("mlp", (x, w)), ("reshape", (x,))]


WEIGHTS_IR = '''
export func @affine(%x: tensor<f32, [2, 3]>) -> tensor<f32, [2, 3]> {
  %w = const @w0 : tensor<f32, [2, 3]>
  %y = tensor.mul %x, %w : tensor<f32, [2, 3]>
  %b = const @b0 : tensor<f32, [3]>
  %z = tensor.add %y, %b : tensor<f32, [2, 3]>
  return %z
}

export func @weights() -> tensor<f64, [4]> {
  %v = const @v0 : tensor<f64, [4]>
  return %v
}
'''


@dataclass
class Seed:
    name: str
    data: bytes
    cases: list = field(default_factory=list)


def _from_source(name, source, cases, filename) -> Seed:
    import ember
    from ember.interpreter.artifact_writer import artifact_bytes

    cu = ember.CompilationUnit(source, filename=filename)
    fn = getattr(cu, cases[0][0])
    return Seed(name, artifact_bytes(fn.program, default_entry=fn.entry), cases)


def _weights() -> Seed:
    import ember.ir as I
    from ember.interpreter.artifact_writer import artifact_bytes
    from ember.interpreter.pipeline import compile_to_program

    m = I.parse_module(WEIGHTS_IR)
    m.add_tensor("w0", np.arange(6, dtype=np.float32).reshape(2, 3))
    m.add_tensor("b0", np.array([1, 2, 3], dtype=np.float32))
    m.add_tensor("v0", np.array([0.5, -1, 2, 1e300], dtype=np.float64))
    data = artifact_bytes(compile_to_program(m, optimize=False), default_entry="affine")
    return Seed("weights", data, [("affine", (np.ones((2, 3), dtype=np.float32),)),
                                  ("weights", ())])


def seeds(generated: int = 3) -> list:
    """The seed artifacts: the fixed ones, then `generated` generated programs."""
    from ember.fuzz.generator import generate

    out = [_from_source("scalars", SCALARS, SCALAR_CASES, "scalars.py"),
           _weights()]
    from ember import ops
    if "tensor.matmul" in ops.REGISTRY:
        out.append(_from_source("tensors", TENSORS, _tensor_cases(), "tensors.py"))
    k = 0
    while sum(s.name.startswith("gen") for s in out) < generated:
        prog = generate(7_000_000 + k)
        k += 1
        try:
            out.append(_from_source(f"gen{prog.seed}", prog.source, prog.cases, "gen.py"))
        except Exception:  # noqa: BLE001, S112 - a program ember rejects is no seed
            continue
    return out
