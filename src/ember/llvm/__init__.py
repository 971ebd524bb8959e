"""ember's native tier: the optimized IR compiled to machine code with llvmlite.

    native = NativeModule(ir_module, entries)      # plan, compile (or load from cache)
    native.function("f", vm_entry)                 # a callable, or None (runs on the VM)
    native.reasons["g"]                            # why g stayed on the VM, with file:line

Package map: layout.py (value layouts), codegen.py (structured control flow, ownership,
errors), ops_table.py + ops_list.py (the one table: kernel op → emitter), rt.py (lists
and reference counts in LLVM IR), module.py (what goes native; entry shims), jit.py
(optimization, code generation, MCJIT), cache.py (the object cache), boundary.py (calls
from Python), sites.py (errors). Imports: ember.ir, ember.ops, ember.errors, llvmlite,
numpy — never the frontend; ember.mobile never imports this package.
"""

from __future__ import annotations

from ember.llvm import cache
from ember.llvm.sites import Site

# (a cache hit imports neither llvmlite.binding nor the code generator: module.py, jit.py
# and codegen are imported where a module is compiled)

def _code_version() -> str:
    """A digest of this package's own source: what it generates changes with it, so every
    cache key includes it (no version number to forget to bump)."""
    import hashlib
    import os

    h = hashlib.sha256()
    here = os.path.dirname(__file__)
    for name in sorted(os.listdir(here)):
        if name.endswith(".py"):
            with open(os.path.join(here, name), "rb") as fh:
                h.update(name.encode() + b"\0" + fh.read())
    return h.hexdigest()[:16]


VERSION = _code_version()


class NativeModule:
    """The native code of one IR module's entry points (and their callees)."""

    def __init__(self, module, entries: list[str]):
        from ember.ir import print_module

        self.module = module
        text = print_module(module)
        key = cache.key(VERSION, host_key(), _exceptions_key(), text, ",".join(entries))
        prefix = f"ember_{key[:12]}_"
        hit = cache.load(key)
        if hit is not None:
            meta, obj = hit
            self.plan = _plan_from_json(meta)
            self.cached = True
        else:
            self.plan, obj = _build(module, entries, prefix)
            cache.store(key, _plan_json(self.plan, prefix), obj)
            self.cached = False
        self.prefix = prefix
        self.loaded = _link(obj) if self.plan.entries else None

    @property
    def reasons(self) -> dict:
        return self.plan.reasons

    def is_native(self, name: str) -> bool:
        return name in self.plan.native

    def function(self, name: str, vm_entry, sources: dict):
        """The native callable for entry `name`, or None if it runs on the VM (vm_entry: the
        VM's entry, or a function making it when first needed)."""
        from ember.llvm.boundary import NativeFunction
        from ember.llvm.plan import boundary_types, is_scalar_signature, release_symbol

        shim = self.plan.entries.get(name)
        if shim is None:
            return None
        func = self.module.funcs[name]
        ft = func.attrs["type"]
        releases = {t: self.loaded.address(release_symbol(self.prefix, t))
                    for t in boundary_types(list(ft.params) + [ft.ret])}
        direct = self.loaded.address(shim + "d") if is_scalar_signature(ft) else None
        native = NativeFunction(vm_entry, func, self.loaded.address(shim), releases,
                                self.plan.sites, sources, direct)
        if direct is None:
            return native
        from ember.llvm.pyentry import make_builtin

        return (make_builtin(self.loaded.address(shim), ft, native.args_type, name,
                             native.slow_path, native.on_error, self.loaded)
                or native.fast())


def _link(obj: bytes):
    """Object code linked into this process: by ember's own loader (elfload.py) where it
    handles the object, else by LLVM's MCJIT."""
    from ember.llvm import elfload

    try:
        return elfload.load(obj)
    except elfload.Unloadable:
        from ember.llvm import jit
        return jit.Loaded(obj)


def _exceptions_key() -> str:
    """The exception classes scripts use, with their bases: their class codes and which
    handler catches which are compiled into the object code, and they live in ember.ops."""
    from ember.ops.scalar_builtins import EXCEPTION_CLASSES

    return ",".join(f"{n}<{c.__mro__[1].__name__}" if len(c.__mro__) > 1 else n
                    for n, c in sorted(EXCEPTION_CLASSES.items()))


def host_key() -> str:
    """What the object code depends on besides the IR: llvmlite (and so LLVM) version, the
    machine, the CPU model and features, EMBER_LLVM_CPU — read without importing
    llvmlite.binding where the system says it (Linux's /proc/cpuinfo)."""
    import hashlib
    import os
    import platform
    import sys

    import llvmlite

    cpu = None
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo", "rb") as fh:
                lines = fh.read().split(b"\n\n")[0].splitlines()
            cpu = b"\n".join(ln for ln in lines if ln.split(b":")[0].strip() in
                             (b"vendor_id", b"cpu family", b"model", b"model name", b"flags",
                              b"stepping"))
        except OSError:
            cpu = None
    if not cpu:
        from ember.llvm import jit
        return "llvm|" + jit.target_key()
    return "|".join([llvmlite.__version__, sys.platform, platform.machine(),
                     os.environ.get("EMBER_LLVM_CPU", ""), hashlib.sha256(cpu).hexdigest()[:16]])


def _build(module, entries, prefix) -> tuple:
    """The plan and its object code. A failure inside the native tier itself (a bug: the
    LLVM verifier refusing what codegen made) must not fail the user's compile: every
    function then runs on the VM, and each one's fallback reason names the failure."""
    from ember.llvm import jit
    from ember.llvm.module import Plan, plan_module

    plan = plan_module(module, entries, prefix)
    if not plan.entries:
        return plan, b""
    try:
        return plan, jit.compile_ir(plan.llvm_ir, small=True)
    except RuntimeError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        why = f"internal error in the native tier ({first}); please report it"
        reasons = dict(plan.reasons, **{name: why for name in plan.native})
        return Plan(reasons=reasons, sites=[]), b""


def _plan_json(plan, prefix: str) -> dict:
    return {"native": plan.native, "reasons": plan.reasons, "entries": plan.entries,
            "sites": [s.to_json() for s in plan.sites], "prefix": prefix}


def _plan_from_json(meta: dict):
    from ember.llvm.plan import Plan

    return Plan(native=list(meta["native"]), reasons=dict(meta["reasons"]),
                entries=dict(meta["entries"]),
                sites=[Site.from_json(s) for s in meta["sites"]])
