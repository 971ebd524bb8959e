"""ember's own object loader (llvm/elfload.py): native modules link without LLVM, a cache
hit in a fresh process never imports llvmlite.binding, and an object the loader does not
handle is linked by MCJIT instead (never a crash)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest

import ember

pytest.importorskip("llvmlite")
from ember.llvm import elfload  # noqa: E402

pytestmark = pytest.mark.skipif(not elfload.supported(), reason="loader is Linux x86-64")

SRC = '''
import math
from typing import List
def f(xs: List[float], n: int) -> List[float]:
    out: List[float] = []
    for x in xs:
        out.append(round(math.hypot(x, 1.5) * n, 2))
    return out[::-1]
'''


def _object():
    from ember.llvm import jit
    from ember.llvm.module import plan_module

    sf = ember.CompilationUnit(SRC).f
    plan = plan_module(sf.module, [sf.entry], "t_")
    return plan, jit.compile_ir(plan.llvm_ir, small=True)


def test_native_modules_link_through_embers_loader():
    cu = ember.CompilationUnit(SRC, backend="llvm")
    assert cu.f.backend == "llvm"
    assert isinstance(cu._functions["f"]._compiled.native.loaded, elfload.Image)
    assert cu.f([3.0, -1.0, 0.5], 3) == ember.CompilationUnit(SRC).f([3.0, -1.0, 0.5], 3)


def test_a_loaded_image_exports_its_entries():
    plan, obj = _object()
    image = elfload.load(obj)
    for sym in plan.entries.values():
        assert image.address(sym) > 0
    with pytest.raises(RuntimeError, match="missing"):
        image.address("no_such_symbol")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "machine", "relocation"])
def test_objects_it_does_not_handle_are_unloadable(damage):
    _, obj = _object()
    obj = bytearray(obj)
    if damage == "garbage":
        obj = bytearray(b"not an object" * 10)
    elif damage == "truncated":
        obj = obj[:80]
    elif damage == "machine":
        struct.pack_into("<H", obj, 18, 183)  # aarch64
    else:  # every RELA entry's type becomes one the loader does not know
        elf = elfload._Elf(bytes(obj))
        for s in elf.sections:
            if s[1] == elfload.SHT_RELA:
                for k in range(s[5] // 24):
                    struct.pack_into("<I", obj, s[4] + 24 * k + 8, 37)
    with pytest.raises(elfload.Unloadable):
        elfload.load(bytes(obj))


def test_mcjit_links_what_the_loader_refuses(monkeypatch):
    def refuse(obj):
        raise elfload.Unloadable("refused for the test")
    monkeypatch.setattr(elfload, "load", refuse)
    monkeypatch.setenv("EMBER_CACHE", "0")
    cu = ember.CompilationUnit(SRC, backend="llvm")
    assert cu.f.backend == "llvm"
    assert not isinstance(cu._functions["f"]._compiled.native.loaded, elfload.Image)
    assert cu.f([2.0], 1) == [2.5]


def test_a_cache_hit_does_not_import_llvmlite_binding(tmp_path):
    """Nor the tensor kernels, for a program without tensors."""
    code = ("import sys, ember\n"
            f"cu = ember.CompilationUnit({SRC!r}, backend='llvm')\n"
            "print(cu.f.backend, cu.f([2.0], 1), 'llvmlite.binding' in sys.modules,\n"
            "      'ember.llvm.kernels' in sys.modules)\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    run = [sys.executable, "-c", code]
    first = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    second = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
    assert first.split() == ["llvm", "[2.5]", "True", "False"]
    assert second.split() == ["llvm", "[2.5]", "False", "False"]


def test_native_kernels_are_tensor_operators():
    """api/core._native_kernel asks llvm/kernels only about tensor operators."""
    from ember.llvm.kernels import NATIVE

    assert NATIVE and all(name.startswith("tensor.") for name in NATIVE)


def test_a_refused_object_is_unmapped_once(monkeypatch):
    """An object refused after its memory was mapped (here: the large code model's
    _GLOBAL_OFFSET_TABLE_) is unmapped by the loader, and never again by the garbage
    collector (which would unmap whatever MCJIT mapped there next)."""
    import gc

    from ember.llvm import jit

    plan, _ = _object()
    obj = jit.compile_ir(plan.llvm_ir)
    real = elfload._Libc.get()[0]
    calls = []

    class Counting:
        def __getattr__(self, name):
            return getattr(real, name)

        def munmap(self, base, size):
            calls.append(base)
            return real.munmap(base, size)
    monkeypatch.setattr(elfload._Libc, "lib", (Counting(),))
    with pytest.raises(elfload.Unloadable):
        elfload.load(obj)
    gc.collect()
    assert len(calls) == 1
