import numpy as np
import pytest

import ember

SOURCE = '''
from typing import List


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def total(xs: List[float], scale: float = 2.0) -> float:
    s = 0.0
    for x in xs:
        s += x * scale
    return s


def div(a: int, b: int) -> int:
    return a // b


def pick(xs: List[int], i: int) -> int:
    return xs[i]
'''


@pytest.fixture(scope="session")
def unit():
    return ember.CompilationUnit(SOURCE, filename="prog.py")


@pytest.fixture()
def artifact(tmp_path, unit):
    path = tmp_path / "prog.ember"
    unit.fib.save(path)
    return path


@pytest.fixture()
def tensor_artifact(tmp_path):
    """An artifact holding tensor constants (written by the lowering directly)."""
    import ember.ir as I
    from ember.interpreter.artifact_writer import write_artifact
    from ember.interpreter.pipeline import compile_to_program
    m = I.parse_module('''
export func @w() -> tensor<f32, [2, 3]> {
  %a = const @w0 : tensor<f32, [2, 3]>
  return %a
}

export func @v() -> tensor<f64, [4]> {
  %a = const @w1 : tensor<f64, [4]>
  return %a
}
''')
    m.add_tensor("w0", np.arange(6, dtype=np.float32).reshape(2, 3))
    m.add_tensor("w1", np.ones((4,), dtype=np.float64))
    program = compile_to_program(m, optimize=False)
    path = tmp_path / "t.ember"
    write_artifact(program, path)
    return path
