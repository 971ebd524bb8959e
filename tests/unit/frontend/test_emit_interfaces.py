"""@torch.jit.interface: an annotation naming an interface is the union of the classes
defining all its methods; calls dispatch on the object's class (frontend/polymorph.py)."""

from __future__ import annotations

import os
import tempfile

import pytest

import ember
from ember import errors, mobile

SOURCE = '''
class Doubler(object):
    def __init__(self, k: int):
        self.k = k

    def apply(self, x: int) -> int:
        return 2 * x + self.k

    def name(self) -> str:
        return "double"


class Squarer(object):
    def __init__(self):
        pass

    def apply(self, x: int) -> int:
        return x * x

    def name(self) -> str:
        return "square"


class Unrelated(object):
    def __init__(self):
        pass

    def apply(self, x: int) -> int:
        return -x


@torch.jit.interface
class Step(object):
    def apply(self, x: int) -> int:
        pass

    def name(self) -> str:
        pass


def run(x: int) -> List[str]:
    steps = torch.jit.annotate(List[Step], [Doubler(1), Squarer(), Doubler(-3)])
    out: List[str] = []
    for s in steps:
        x = s.apply(x)
        out.append(s.name() + "=" + str(x))
    return out


def first(s: Step, x: int) -> int:
    return s.apply(x)


def pick(k: int) -> int:
    return first(Squarer(), k) + first(Doubler(k), k)
'''


def _python(source: str):
    ns: dict = {}
    from ember.fuzz.oracle import string_frontend_values
    ns.update(string_frontend_values(source))
    exec(compile(source.replace("@torch.jit.interface\n", ""), "<interface>", "exec"), ns)
    return ns


@pytest.mark.parametrize("entry, args", [("run", (3,)), ("run", (-2,)), ("pick", (5,))])
def test_interface_values_dispatch_as_python(entry, args):
    pytest.importorskip("torch")
    cu = ember.CompilationUnit(SOURCE)
    want = _python(SOURCE)[entry](*args)
    fn = getattr(cu, entry)
    assert fn(*args) == want
    fd, path = tempfile.mkstemp(suffix=".ember")
    os.close(fd)
    try:
        fn.save(path)
        assert getattr(mobile.load(path), fn.entry)(*args) == want
    finally:
        os.unlink(path)


def test_a_class_missing_a_method_is_not_the_interface():
    pytest.importorskip("torch")
    bad = SOURCE + "\n\ndef wrong() -> int:\n    return first(Unrelated(), 1)\n"
    with pytest.raises(errors.TypeCheckError) as ei:
        ember.CompilationUnit(bad)
    assert "Unrelated" in str(ei.value) and ei.value.line == bad.count("\n")
