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

import functools
import threading
import weakref

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
        from ember.llvm import tiers

        self.module = module
        text = print_module(module)
        key = cache.key(VERSION, host_key(), _exceptions_key(), text, ",".join(entries))
        prefix = f"ember_{key[:12]}_"
        self.key, self.prefix, self.tier, self.cached = key, prefix, "opt", True
        self._lock = threading.Lock()
        self._handed: list = []
        """(name, NativeFunction, its builtins) of every entry made: what a tier-up
        re-points at the optimized code."""
        self._images: list = []
        hit = cache.load(key)
        how = "opt"
        if hit is not None:
            meta, obj = hit
            self.plan = _plan_from_json(meta)
        else:
            self.cached, how = False, tiers.mode()
            self.plan, obj, quick = _build(module, entries, prefix, how)
            if not quick:
                cache.store(key, _plan_json(self.plan, prefix), obj)
            else:
                self.tier = "quick"
        self.loaded = _link(obj) if self.plan.entries else None
        self._gate = None
        """The quick tier's call counter (tiers.Gate), while the optimized code is due."""
        if self.tier == "quick" and how == "auto":
            job = tiers.submit(functools.partial(_optimize, weakref.ref(self), key,
                                                 self.plan, prefix, cache.destination()))
            with self._lock:  # (the worker may have installed the optimized code already)
                if self.tier == "quick":
                    self._gate = tiers.Gate(job)

    @property
    def reasons(self) -> dict:
        return self.plan.reasons

    def is_native(self, name: str) -> bool:
        return name in self.plan.native

    def _function(self, name: str, vm_entry, sources: dict):
        from ember.llvm.boundary import NativeFunction

        if name not in self.plan.entries:
            return None
        func = self.module.funcs[name]
        ft = func.attrs["type"]
        shim, releases, direct = self._addresses(name)
        native = NativeFunction(vm_entry, func, shim, releases, self.plan.sites, sources,
                                direct)
        builtins = []
        if direct is not None:
            from ember.llvm.pyentry import make_builtin

            builtins = [make_builtin(shim, ft, native.args_type, name, native.slow_path,
                                     native.on_error, self.loaded)]
            if builtins[0] is None:
                builtins = []
            elif self._gate is not None:
                builtins.insert(0, self._gated(builtins[0], shim, ft, native, name))
        handed = builtins[0] if builtins else (native if direct is None else native.fast())
        if self.tier == "quick":
            native.gate, native.again = self._gate, handed
            self._handed.append((name, native, builtins))
        return handed

    def _gated(self, inner, shim, ft, native, name):
        """The builtin handed out while the code is quick: every call first counts on the
        gate (pyentry.gate), then runs `inner` (the same native code, ungated); the
        tier-up opens it."""
        from ember.llvm.pyentry import gate, make_builtin

        counter = self._gate

        def counted(*args, **kwargs):
            counter.tick()
            return inner(*args, **kwargs)
        outer = make_builtin(shim, ft, native.args_type, name, counted, native.on_error,
                             self.loaded)
        gate(outer, closed=True)
        return outer

    def function(self, name: str, vm_entry, sources: dict):
        """The native callable for entry `name`, or None if it runs on the VM (vm_entry: the
        VM's entry, or a function making it when first needed)."""
        with self._lock:
            return self._function(name, vm_entry, sources)

    def _addresses(self, name: str) -> tuple:
        """(shim, {type: release}, direct or None) of entry `name` in the loaded image."""
        from ember.llvm.plan import boundary_types, is_scalar_signature, release_symbol

        shim = self.plan.entries[name]
        ft = self.module.funcs[name].attrs["type"]
        releases = {t: self.loaded.address(release_symbol(self.prefix, t))
                    for t in boundary_types(list(ft.params) + [ft.ret])}
        direct = self.loaded.address(shim + "d") if is_scalar_signature(ft) else None
        return self.loaded.address(shim), releases, direct

    def _install(self, image) -> None:
        """Run the optimized code from now on: every entry handed out is re-pointed at
        `image` (the quick image stays loaded: a call may still be running in it)."""
        from ember.llvm.pyentry import gate, repoint

        with self._lock:
            self._images.append(self.loaded)
            self.loaded, self.tier, self._gate = image, "opt", None
            for name, native, builtins in self._handed:
                shim, releases, direct = self._addresses(name)
                native.repoint(shim, releases, direct)
                native.gate = None
                for builtin in builtins:
                    repoint(builtin, shim, image)
                    gate(builtin, closed=False)
            self._handed = []
            _raise_flag(self._images[-1], self.prefix)


def _raise_flag(quick_image, prefix: str) -> None:
    """Make calls still running in the quick code leave at their next poll (codegen.
    poll_tierup) and run again on the optimized code, now that every entry points there."""
    import ctypes

    try:
        ctypes.c_uint8.from_address(quick_image.address(prefix + "tierup")).value = 1
    except RuntimeError:  # (no loop and no recursion: nothing polls)
        pass


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
    llvmlite.binding where the system says it (Linux's /proc/cpuinfo; once a process)."""
    import os

    return _host_key(os.environ.get("EMBER_LLVM_CPU", ""))


@functools.lru_cache(maxsize=None)
def _host_key(cpu_choice: str) -> str:
    import hashlib
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
    return "|".join([llvmlite.__version__, sys.platform, platform.machine(), cpu_choice,
                     hashlib.sha256(cpu).hexdigest()[:16]])


def _optimize(ref, key: str, plan, prefix: str, where) -> None:
    """The optimized tier (tiers.py's worker): O3 object code for `plan`, kept in the
    cache and installed in the module — if the module is still alive (a module dropped
    before its turn, as a test or a fuzzer drops thousands, costs no O3 compile; one
    alive when the process exits still gets its object cached)."""
    from ember.llvm import jit

    if ref() is None:
        return
    obj = jit.compile_ir(_optimized_text(plan, prefix), small=True)
    cache.store(key, _plan_json(plan, prefix), obj, where)
    native = ref()
    if native is not None:
        native._install(_link(obj))


def _optimized_text(plan, prefix: str) -> str:
    """The plan's LLVM IR for the optimized tier: the quick tier's poll flag (codegen.
    poll_tierup) is a constant 0 there, so LLVM removes every poll."""
    flag = f'@"{prefix}tierup" = '
    return plan.llvm_ir.replace(flag + "global i8 0", flag + "constant i8 0", 1)


def _build(module, entries, prefix, how: str = "opt") -> tuple:
    """The plan, its object code and whether that is the quick tier's (tiers.mode() `how`
    and tiers.quick_fits say). A failure inside the native tier itself (a bug: the LLVM
    verifier refusing what codegen made) must not fail the user's compile: every function
    then runs on the VM, and each one's fallback reason names the failure."""
    from ember.llvm import jit, tiers
    from ember.llvm.module import Plan, plan_module

    plan = plan_module(module, entries, prefix)
    if not plan.entries:
        return plan, b"", False
    quick = how != "opt" and tiers.quick_fits(plan)
    text = plan.llvm_ir if quick else _optimized_text(plan, prefix)
    try:
        return plan, jit.compile_ir(text, small=True, quick=quick), quick
    except RuntimeError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        why = f"internal error in the native tier ({first}); please report it"
        reasons = dict(plan.reasons, **{name: why for name in plan.native})
        return Plan(reasons=reasons, sites=[]), b"", False


def _plan_json(plan, prefix: str) -> dict:
    return {"native": plan.native, "reasons": plan.reasons, "entries": plan.entries,
            "sites": [s.to_json() for s in plan.sites], "prefix": prefix}


def _plan_from_json(meta: dict):
    from ember.llvm.plan import Plan

    return Plan(native=list(meta["native"]), reasons=dict(meta["reasons"]),
                entries=dict(meta["entries"]),
                sites=[Site.from_json(s) for s in meta["sites"]])
