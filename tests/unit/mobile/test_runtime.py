"""The call boundary, script tracebacks, threads, and the import rule."""

import os
import subprocess
import sys
import threading

import pytest

from ember import mobile
from ember.errors import CallError


def test_wrong_argument_types(artifact):
    m = mobile.load(artifact)
    with pytest.raises(CallError, match="argument 'n' must be int, got str"):
        m("3")
    with pytest.raises(TypeError, match="must be int, got bool"):
        m(True)
    with pytest.raises(CallError, match="outside int64"):
        m(2 ** 70)
    with pytest.raises(CallError, match="must be List\\[float\\], got List\\[str\\]"):
        m.total(["1", "2"])
    assert m.total([1, 2]) == m.total([1.0, 2.0])  # ints for floats: converted
    assert m.total([1.0], 2) == m.total([1.0], 2.0)  # an int for a float: converted


def test_wrong_argument_counts(artifact):
    m = mobile.load(artifact)
    with pytest.raises(CallError, match="takes 1 argument"):
        m(1, 2)
    with pytest.raises(CallError, match="missing required argument 'n'"):
        m()
    with pytest.raises(CallError, match="unexpected keyword argument 'x'"):
        m(x=3)
    assert m(n=10) == 55


def test_script_exceptions_keep_type_and_message(artifact):
    m = mobile.load(artifact)
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero") as ei:
        m.div(1, 0)
    note = "\n".join(ei.value.__notes__)
    assert 'File "prog.py", line 19, in div' in note
    assert "return a // b" in note
    with pytest.raises(IndexError, match="list index out of range"):
        m.pick([1, 2], 5)


def test_traceback_lists_every_script_frame(unit):
    import ember
    # b is recursive, so it is not inlined into a: both frames exist at run time.
    cu = ember.CompilationUnit("def a(x: int) -> int:\n    return b(x) + 1\n\n\n"
                               "def b(x: int) -> int:\n    if x > 3:\n        return b(x - 1)\n"
                               "    return 10 // x\n", filename="t.py")
    with pytest.raises(ZeroDivisionError) as ei:
        cu.a(0)
    note = ei.value.__notes__[0]
    assert note.count("in b") == 1
    assert note.index("in a") < note.index("in b")
    assert "return 10 // x" in note


def test_threads_share_one_loaded_module(artifact):
    m = mobile.load(artifact)
    expected = [m(n) for n in range(15)]
    results = {}

    def work(k):
        results[k] = [m(n) for n in range(15)]
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results.values()) and len(results) == 8


def test_runtime_imports_with_numpy_alone(artifact):
    code = f"""
import sys, importlib.abc
BLOCK = ("lark", "llvmlite", "torch", "ember.frontend", "ember.ir", "ember.passes",
         "ember.interpreter", "ember.api", "ember.script", "ember.cli", "ember.nn")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCK):
            raise ImportError("blocked: " + name)
sys.meta_path.insert(0, Block())
from ember import mobile
m = mobile.load({str(artifact)!r})
assert m(20) == 6765
leaked = [k for k in sys.modules if any(k == b or k.startswith(b + ".") for b in BLOCK)]
assert not leaked, leaked
print("ok")
"""
    src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "ok", out.stderr


def test_disassembly_names_source_lines(unit):
    text = unit.fib.code
    assert "function fib(n: i64) -> i64" in text
    assert "return fib(n - 1) + fib(n - 2)" in text
    assert "KCALL" in text and "CALL" in text


def test_describe(artifact):
    text = mobile.describe(artifact)
    assert "fib(n: i64) -> i64 (default)" in text
    assert "operators" in text and "int.lt" in text


def test_tensor_printing_in_a_fresh_process(tmp_path):
    # numpy sets up ndarray.__str__/__repr__ lazily; before the fix, the first str(tensor)
    # in a process ran inside translated code (empty __builtins__) and failed. Tensors are
    # written as torch writes them (ops/tensor_str.py).
    code = """
import numpy as np
import ember
cu = ember.CompilationUnit('''
import torch
from typing import List
def f(x: torch.Tensor) -> List[str]:
    print(x)
    return [str(x), repr(x), f"{x}", str([x]), str(x.sum())]
''')
x = np.arange(3, dtype=np.float32)
got = cu.f(x)
t = "tensor([0., 1., 2.])"  # as torch prints it
assert got == [t, t, t, "[" + t + "]", "tensor(3.)"], got
print("ok")
"""
    src = os.path.join(os.path.dirname(__file__), "..", "..", "..", "src")
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip().splitlines()[-1:] == ["ok"], out.stderr
