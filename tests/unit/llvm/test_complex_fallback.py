"""Complex numbers are not native: a function that uses them runs on the VM under the
llvm backend, with the VM's (CPython's) results, and says why."""

import importlib.util
import sys
import tempfile
from pathlib import Path

import pytest

import ember

pytest.importorskip("llvmlite")

SOURCE = '''
import cmath

def inside(n: int) -> float:
    z = complex(n, 1)
    return abs(z * z) + cmath.phase(z)

def signature(z: complex) -> complex:
    return z * z
'''


def test_complex_code_falls_back_to_the_vm_with_the_vms_results():
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "cplx_llvm_mod.py"
        path.write_text(SOURCE)
        spec = importlib.util.spec_from_file_location("cplx_llvm_mod", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["cplx_llvm_mod"] = mod
        spec.loader.exec_module(mod)
        for name, arg, why in (("inside", 3, "complex"), ("signature", 1 + 2j, "c128")):
            fn = getattr(mod, name)
            sf = ember.script(fn, backend="llvm")
            assert sf.backend == "vm" and why in sf.fallback_reason
            assert sf(arg) == fn(arg) and type(sf(arg)) is type(fn(arg))
