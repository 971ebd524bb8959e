"""Pruning a Program to what its entry points reach: whatever a kept function, class or
object refers to survives (classes named only by a type, NamedTuples, module objects,
special methods), the rest is dropped, and the program runs the same."""

import numpy as np
import pytest

import ember
from ember import mobile
from ember.interpreter.artifact_writer import artifact_bytes
from ember.interpreter.assembler import assemble
from ember.interpreter.prune import prune_program

PROGRAM = """
.operators float.add int.add
class Dead(a: i64) class
class Leaf(v: i64) class
class Box(leaf: !Leaf) class
class Arg(s: str) namedtuple
class Boom(msg: str) exception
class Other(a: i64) class

function f(a: !Arg, n: i64) -> i64
  .entry f
  NEWOBJ r2 !Box ()
  ISINST r3 r0 type:"optional<!Boom>"
  LOADK  r4 tensor:1
  CALL   r5 @g (r1)
  RETURN r5

function dead(x: f64) -> !Dead
  LOADK  r1 tensor:0
  KCALL  r2 float.add (r0, r0)
  NEWOBJ r3 !Dead ()
  RETURN r3

function g(n: i64) -> i64
  KCALL  r1 int.add (r0, r0)
  RETURN r1
"""


def _program():
    return assemble(PROGRAM, tensors=[("t0", np.zeros(3, np.float32)),
                                      ("t1", np.ones(2, np.float32))])


def test_unreachable_tables_are_dropped_and_indices_renumbered():
    p = prune_program(_program())
    assert [c.name for c in p.classes] == ["Leaf", "Box", "Arg", "Boom"]
    assert [f.name for f in p.functions] == ["f", "g"]
    assert [n for n, _ in p.tensors] == ["t1"] and p.operators == ["int.add"]
    assert p.entries == {"f": 0}
    assert mobile.loads(artifact_bytes(p)).f(("x",), 21) == 42
    assert mobile.build(_program()).f(("x",), 21) == 42


def test_a_program_using_everything_comes_back_unchanged():
    p = assemble("class P(x: i64) class\nfunction f(a: !P) -> i64\n  .entry f\n"
                 "  GETF r1 r0 0\n  RETURN r1")
    assert prune_program(p) is p


SRC = '''
from typing import List, NamedTuple

class Unused:
    def __init__(self, x: int):
        self.x = x

class V:
    def __init__(self, x: int):
        self.x = x
    def __eq__(self, other: "V") -> bool:
        return self.x == other.x

class P(NamedTuple):
    name: str
    score: float

def f(n: int) -> List[str]:
    xs = [V(1), V(n)]
    p = P("a", 1.5)
    return [str(xs.index(V(n))), p.name, str(p.score)]
'''


def test_script_classes_survive_and_unused_ones_do_not(tmp_path):
    unit = ember.CompilationUnit(SRC, filename="classes.py")
    names = [c.name for c in unit.f.program.classes]
    assert "V" in names and "P" in names and "Unused" not in names
    path = tmp_path / "c.ember"
    unit.f.save(path)
    assert mobile.load(path)(3) == unit.f(3) == ["1", "a", "1.5"]


class _Scale(ember.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = np.arange(4, dtype=np.float32)

    def forward(self, x):
        return x * self.w


class _Net(ember.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = _Scale()
        self.b = _Scale()

    def forward(self, x):
        return self.b(self.a(x))


@pytest.mark.parametrize("optimize", [True, False])
def test_module_classes_kept_only_while_objects_use_them(optimize, tmp_path):
    s = ember.script(_Net(), optimize=optimize)
    kinds = [c.kind for c in s.program.classes]
    assert ("module" in kinds) == (not optimize)
    path = tmp_path / "net.ember"
    s.save(path)
    x = np.ones(4, np.float32)
    np.testing.assert_array_equal(mobile.load(path)(x), x * np.arange(4) ** 2)
