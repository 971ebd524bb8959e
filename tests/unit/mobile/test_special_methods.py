"""Special methods of script classes reach their run-time classes: Python's own container
operations use them in process and after save/load; the IR and the artifact carry the
method table, and a hostile table fails at load with ArtifactError."""

import pytest

import ember
from ember import mobile
from ember.errors import ArtifactError
from ember.ir import parse_module, print_module

from .test_artifact import _rewrite

SRC = '''
from typing import Dict, List

class V:
    def __init__(self, x: int):
        self.x = x
    def __eq__(self, other: "V") -> bool:
        return self.x == other.x
    def __hash__(self) -> int:
        return self.x % 7
    def __repr__(self) -> str:
        return f"V<{self.x}>"

def f(n: int) -> List[str]:
    xs = [V(1), V(n), V(1)]
    xs.remove(V(1))
    d: Dict[V, int] = {V(n): 1}
    d[V(n)] = 2
    return [str(xs), str(xs.index(V(1))), str(len(d)), str([V(n)] == [V(n)])]
'''


@pytest.fixture(scope="module")
def unit():
    return ember.CompilationUnit(SRC, filename="special.py")


def test_container_operations_use_the_methods(unit, tmp_path):
    want = ["[V<3>, V<1>]", "1", "1", "True"]
    assert unit.f(3) == want
    unit.f.save(tmp_path / "f.ember")
    assert mobile.load(tmp_path / "f.ember")(3) == want


def test_ir_carries_the_method_table(unit):
    text = unit.f.graph
    assert "methods {__eq__ = @V.__eq__, __hash__ = @V.__hash__, __repr__ = @V.__repr__}" \
        in text
    assert print_module(parse_module(text)) == text


def test_eq_without_hash_is_unhashable():
    unit = ember.CompilationUnit(
        "from typing import Dict\nclass P:\n    def __init__(self):\n        self.a = 1\n"
        "    def __eq__(self, o: 'P') -> bool:\n        return True\n"
        "def f() -> int:\n    d: Dict[P, int] = {P(): 1}\n    return len(d)\n")
    with pytest.raises(TypeError, match="unhashable type: 'P'"):
        unit.f()


def _edit_methods(methods):
    def edit(m, files):
        for c in m["classes"]:
            if c["name"] == "V":
                c["methods"] = methods
    return edit


@pytest.mark.parametrize("methods", [
    {"__init__": 0}, {"__eq__": 10 ** 6}, {"__eq__": "0"}, {"__repr__": -1},
])
def test_bad_method_tables(unit, tmp_path, methods):
    unit.f.save(tmp_path / "f.ember")
    data = (tmp_path / "f.ember").read_bytes()
    with pytest.raises(ArtifactError):
        mobile.loads(_rewrite(data, _edit_methods(methods)))


def test_method_arity_is_checked(unit, tmp_path):
    unit.f.save(tmp_path / "f.ember")
    data = (tmp_path / "f.ember").read_bytes()

    def swap(m, files):
        for c in m["classes"]:
            if c["name"] == "V":
                c["methods"] = {"__hash__": c["methods"]["__eq__"]}
    with pytest.raises(ArtifactError, match="special method"):
        mobile.loads(_rewrite(data, swap))
