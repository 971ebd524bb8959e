"""What a compiled module holds, without the code generator: the plan (native functions,
fallback reasons, error sites, entry shims) and the names of the helpers the boundary
calls. A cache hit needs only this (module.py makes plans)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ember.ir import types as T
from ember.llvm.memory import is_refcounted, type_key


@dataclass
class Plan:
    """The LLVM IR of one module's native functions, and what stayed on the VM."""

    llvm_ir: str = ""
    native: list = field(default_factory=list)
    reasons: dict = field(default_factory=dict)
    """function name -> "reason (file:line)" for the functions left on the VM."""
    sites: list = field(default_factory=list)
    entries: dict = field(default_factory=dict)
    """entry function name -> its shim's symbol."""
    recursive: bool = False
    """Some native function is on a call cycle (known where the plan is made, not kept in
    the cache: tiers.quick_fits asks)."""


def boundary_types(types) -> list:
    """Every refcounted type a boundary conversion of values of `types` handles: the types
    themselves and the list types nested in them (the boundary holds a reference to each
    list it makes, and releases it with that type's exported helper)."""
    out: list = []

    def walk(t):
        if is_refcounted(t) and t not in out:
            out.append(t)
        for sub in (getattr(t, "elem", None),) + tuple(getattr(t, "elems", ())):
            if sub is not None:
                walk(sub)
    for t in types:
        walk(t)
    return out


def release_symbol(prefix: str, t: T.Type) -> str:
    """The exported `void (ptr slot)` that releases a value of type t stored at slot."""
    return f"{prefix}release_{type_key(t)}"


def is_scalar_signature(ft) -> bool:
    """Only int, float, bool and None cross: the entry also has a direct shim
    (`<shim>d`, module.ModuleGen.direct_shim) the boundary calls."""
    return all(t in (T.I64, T.F64, T.BOOL, T.NONE) for t in list(ft.params) + [ft.ret])
