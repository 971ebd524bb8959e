"""LLVM IR text → optimized machine code in this process, through llvmlite's MCJIT.

Code is generated for the host CPU (its name and features: AVX2, AVX-512 where present)
at O3 with no fast-math flags, so float results are IEEE's, bit for bit (a float
reduction is vectorized in its own order: `_ordered_reductions`). Setting
`EMBER_LLVM_CPU=generic` makes portable code (baseline x86-64) instead. Object code is
what the cache (cache.py) keeps; a hit skips parsing, optimizing and code generation.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import threading

import llvmlite
import llvmlite.binding as llvm

_LOCK = threading.Lock()
_STATE: dict = {}


def _init():
    if "tm" in _STATE:
        return _STATE
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    triple = llvm.get_process_triple()
    target = llvm.Target.from_triple(triple)
    generic = os.environ.get("EMBER_LLVM_CPU", "") == "generic"
    cpu = "" if generic else llvm.get_host_cpu_name()
    features = "" if generic else llvm.get_host_cpu_features().flatten()
    _STATE["new_tm"] = lambda: target.create_target_machine(
        cpu=cpu, features=features, opt=3, reloc="pic", codemodel="jitdefault")
    _STATE["tm"] = _STATE["new_tm"]()
    # scalar modules: the small code model, whose object code ember's own loader links
    # (elfload.py; MCJIT's large-model objects need its GOT)
    _STATE["tm_small"] = target.create_target_machine(
        cpu=cpu, features=features, opt=3, reloc="pic", codemodel="small")
    # the quick tier (tiers.py): LLVM's fast instruction selector and register allocator
    _STATE["tm_quick"] = target.create_target_machine(
        cpu=cpu, features=features, opt=0, reloc="pic", codemodel="small")
    _STATE["key"] = f"{llvmlite.__version__}|{llvm.llvm_version_info}|{triple}|{cpu}|{features}"
    _bind_symbols()
    return _STATE


def target_triple_layout() -> tuple[str, str]:
    with _LOCK:
        st = _init()
        return llvm.get_process_triple(), str(st["tm"].target_data)


def target_key() -> str:
    """Everything about the code generator that the object code depends on."""
    with _LOCK:
        return _init()["key"]


def _bind_symbols():
    """Make the C library's and libm's functions visible to the JIT's linker."""
    libc = ctypes.CDLL(None)
    libm_path = ctypes.util.find_library("m")
    libm = ctypes.CDLL(libm_path) if libm_path else libc
    for name in ("malloc", "free", "realloc", "qsort", "memmove", "memcpy", "memset",
                 "snprintf", "strtod", "strtol"):
        llvm.add_symbol(name, ctypes.cast(getattr(libc, name), ctypes.c_void_p).value)
    for name in ("pow", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                 "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                 "fmod", "remainder", "atan2", "floor", "ceil", "trunc", "sqrt", "fabs", "copysign",
                 "fma", "roundeven", "frexp", "ldexp"):
        try:
            llvm.add_symbol(name, ctypes.cast(getattr(libm, name), ctypes.c_void_p).value)
        except AttributeError:
            pass


def compile_ir(text: str, small: bool = False, light: bool = False,
               quick: bool = False) -> bytes:
    """Parse, verify, optimize (O3; `light`: only SROA, instcombine and simplifycfg, for
    glue code whose cost is its calls) and compile LLVM IR text to an object file (in the
    small code model, for ember's own loader, if `small`). `quick`: the light passes and
    LLVM's O0 code generator (small code model) — the quick tier's code, made in a tenth
    of the time (tiers.py)."""
    light = light or quick
    with _LOCK:
        st = _init()
        tm = st["tm_quick"] if quick else st["tm_small"] if small else st["tm"]
        mod = llvm.parse_assembly(text)
        mod.verify()
        pto = llvm.create_pipeline_tuning_options(speed_level=1 if light else 3)
        pb = llvm.create_pass_builder(tm, pto)
        if light:
            mpm = llvm.create_new_module_pass_manager()
            mpm.add_sroa_pass()
            mpm.add_instruction_combine_pass()
            mpm.add_simplify_cfg_pass()
        else:
            mpm = pb.getModulePassManager()
        if light:
            mpm.run(mod, pb)
        else:
            with _ordered_reductions():
                mpm.run(mod, pb)
        return tm.emit_object(mod)


@contextlib.contextmanager
def _ordered_reductions():
    """LLVM's loop vectorizer may vectorize a float reduction in its original order
    (`sum += a[i] * b[i]`: the products in vector lanes, the additions one after another,
    so the result is the scalar loop's bit for bit). LLVM enables it only where a target
    asks (AArch64's SVE); on x86 it takes this global option, set for ember's own O3 runs
    and reset after them, so another LLVM user in the process (numba) is not affected."""
    llvm.set_option("ember", "-force-ordered-reductions=true")
    try:
        yield
    finally:
        llvm.set_option("ember", "-force-ordered-reductions=false")


def _after_fork_in_child() -> None:
    global _LOCK
    _LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):  # (no fork in the middle of a compile: tiers.py)
    os.register_at_fork(before=lambda: _LOCK.acquire(),
                        after_in_parent=lambda: _LOCK.release(),
                        after_in_child=_after_fork_in_child)


class Loaded:
    """An object file linked into this process; `address(symbol)` finds a function."""

    def __init__(self, obj: bytes):
        with _LOCK:
            st = _init()
            # an engine owns (and frees) its target machine: each gets its own
            self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), st["new_tm"]())
            self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            self._engine.finalize_object()

    def address(self, symbol: str) -> int:
        addr = self._engine.get_function_address(symbol)
        if not addr:
            raise RuntimeError(f"native symbol {symbol} is missing from the object code")
        return addr
