"""One IR module → one LLVM module: which functions go native, and the entry shims.

A function is native when every op it holds has an emitter and every function it calls
is native (a fixpoint: dropping one function may drop its callers). The others run on
the VM; `Plan.reasons` says, per function, the first construct that kept it off the
native tier and where.

Each native entry gets an exported shim `i32 <prefix>entry<k>(ptr ctx, ptr ret, ptr args)`:
`args` points at a struct of the parameters (layout.ctype), `ret` at a slot for the
result. The shim returns 0 (result stored, owned by the caller) or 1 (error in ctx).
"""

from __future__ import annotations

import sys

from llvmlite import ir

from ember.ir import types as T
from ember.ir.ops import CallOp, ClosureOp
from ember.llvm.codegen import CTX, FunctionGen, fn_type
from ember.llvm.layout import (
    I8, I32, I64, PTR, NotNative, crosses_boundary, is_native_type, is_refcounted, lltype,
    type_key,
)
from ember.llvm.rt import Runtime
from ember.llvm.plan import (  # noqa: F401  (their home)
    Plan, boundary_types, is_scalar_signature, release_symbol,
)
from ember.llvm.sites import Site


EXTRA_CLASSES = {"MemoryError": MemoryError}
"""Builtin classes kernels raise that scripts cannot name (`[0] * 2**40`): caught by
`except Exception`, and given a class code so a handler's dispatch knows them."""


def exc_class_by_name(name: str) -> type:
    from ember.ops.scalar_builtins import EXCEPTION_CLASSES
    return EXCEPTION_CLASSES.get(name) or EXTRA_CLASSES[name]


def _exc_names() -> list:
    from ember.ops.scalar_builtins import EXCEPTION_CLASSES
    return sorted(set(EXCEPTION_CLASSES) | set(EXTRA_CLASSES))


EXC_NAMES = _exc_names()
DEOPT_CODE = len(EXC_NAMES) + 1
"""The class code of a deopt site: no handler catches it (it is no exception: the boundary
runs the whole call again on the VM)."""


def _callees(func) -> set:
    return {op.attrs["callee"].name for op in func.walk()
            if isinstance(op, (CallOp, ClosureOp))}


def _recursive(funcs: dict) -> set:
    """Functions that can reach themselves through calls."""
    graph = {name: _callees(f) & set(funcs) for name, f in funcs.items()}
    out = set()
    for start in graph:
        seen, stack = set(), list(graph[start])
        while stack:
            n = stack.pop()
            if n == start:
                out.add(start)
                break
            if n not in seen:
                seen.add(n)
                stack.extend(graph.get(n, ()))
    return out


class ModuleGen:
    def __init__(self, module, candidates: list[str], prefix: str):
        from ember.llvm import jit

        self.module = module
        self.prefix = prefix
        self.llmod = ir.Module(name=prefix)
        self.llmod.triple, self.llmod.data_layout = jit.target_triple_layout()
        self.recursive = _recursive({c: module.funcs[c] for c in candidates})
        self.rt = Runtime(self.llmod, module.classes)
        self.sites: list[Site] = []
        self.recursion_limit = sys.getrecursionlimit()
        self.llfns = {}
        for i, name in enumerate(candidates):
            fn = ir.Function(self.llmod, fn_type(module.funcs[name], name in self.recursive),
                             f"{prefix}f{i}")
            fn.linkage = "internal"
            self.llfns[name] = fn
        self._intrinsics: dict = {}
        self.unknown_class: set = set()
        """Functions holding a site whose exception class is not known at compile time."""
        self.needs_class: dict = {}
        """Function -> Loc of a try whose handlers name classes and whose body calls: its
        dispatch assumes every callee's exception has a known class code."""

    def tierup_flag(self):
        """The byte the quick tier's code polls at loop heads and recursive entries
        (tiers.py): set when the optimized code is installed, it makes the running call
        leave (a deopt the boundary runs again natively). The optimized text declares it
        constant (TIERUP_CONSTANT), so there the polls fold away."""
        name = self.prefix + "tierup"
        g = self.llmod.globals.get(name)
        if g is None:
            g = ir.GlobalVariable(self.llmod, I8, name)
            g.initializer = I8(0)
        return g

    def exc_code(self, site: Site) -> int:
        """The class code of the exception site raises: 1 + an index into EXC_NAMES, or 0
        when it is not known at compile time."""
        from ember.llvm.ops_table import site_class

        if site.kind == "deopt":
            return DEOPT_CODE
        name = site_class(site)
        return EXC_NAMES.index(name) + 1 if name in EXC_NAMES else 0

    def n_exc_codes(self) -> int:
        return len(EXC_NAMES)

    def exc_class(self, code: int):
        return EXC_NAMES[code - 1] if code else None

    def add_site(self, site: Site) -> int:
        self.sites.append(site)
        return len(self.sites) - 1

    def intrinsic(self, name: str, t, nargs: int = 1):
        key = (name, str(t))
        if key not in self._intrinsics:
            self._intrinsics[key] = self.llmod.declare_intrinsic(
                name, [t], ir.FunctionType(t, [t] * nargs))
        return self._intrinsics[key]

    def intrinsic_ctlz(self):
        key = ("llvm.ctlz", "i64")
        if key not in self._intrinsics:
            self._intrinsics[key] = self.llmod.declare_intrinsic(
                "llvm.ctlz", [I64], ir.FunctionType(I64, [I64, ir.IntType(1)]))
        return self._intrinsics[key]

    def libm(self, name: str, nargs: int):
        return self.rt.declare_libm(name, nargs)

    def entry_shim(self, name: str, k: int) -> tuple[str, str]:
        func = self.module.funcs[name]
        ft = func.attrs["type"]
        shim = ir.Function(self.llmod, ir.FunctionType(I32, [PTR, PTR, PTR]),
                           f"{self.prefix}entry{k}")
        b = ir.IRBuilder(shim.append_basic_block("entry"))
        ctx, ret, argp = shim.args
        st = ir.LiteralStructType([lltype(t) for t in ft.params])
        params = [b.load(b.gep(argp, [I32(0), I32(i)], source_etype=st), typ=lltype(t))
                  for i, t in enumerate(ft.params)]
        if is_scalar_signature(ft):
            # through the direct shim, not inlined: the function's body is compiled once
            direct = self.direct_shim(name, shim.name + "d")
            value = b.call(direct, [ctx] + params, attrs=("noinline",))
            status = b.load(b.gep(ctx, [I32(0), I32(5)], inbounds=True, source_etype=CTX),
                            typ=I32)
            err = b.trunc(status, I8)
        else:  # (the direct shim marks the stack base itself)
            mark_stack_base(b, ctx)
            depth = [I64(1)] if name in self.recursive else []
            r = b.call(self.llfns[name], [ctx] + depth + params)
            err, value = b.extract_value(r, 0), b.extract_value(r, 1)
        ok, bad = shim.append_basic_block("ok"), shim.append_basic_block("err")
        b.cbranch(b.icmp_unsigned("!=", err, I8(0)), bad, ok)
        b.position_at_end(ok)
        b.store(value, ret)
        b.ret(I32(0))
        b.position_at_end(bad)
        b.ret(I32(1))
        for t in boundary_types(list(ft.params) + [ft.ret]):
            sym = release_symbol(self.prefix, t)
            if sym not in self.llmod.globals:
                self.rt.export_release(t, sym)
        return shim.name

    def direct_shim(self, name: str, symbol: str):
        """`R <shim>d(ptr ctx, params…)` for an entry whose values are all scalars: the
        arguments in registers, the result returned, ctx.status 1 on an error (ctypes calls
        it with no argument block or result slot to build)."""

        func = self.module.funcs[name]
        ft = func.attrs["type"]
        shim = ir.Function(self.llmod, ir.FunctionType(
            lltype(ft.ret), [PTR] + [lltype(t) for t in ft.params]), symbol)
        b = ir.IRBuilder(shim.append_basic_block("entry"))
        ctx, params = shim.args[0], list(shim.args[1:])
        mark_stack_base(b, ctx)
        b.store(I32(0), b.gep(ctx, [I32(0), I32(1)], inbounds=True, source_etype=CTX))
        depth = [I64(1)] if name in self.recursive else []
        r = b.call(self.llfns[name], [ctx] + depth + params)
        b.store(b.zext(b.extract_value(r, 0), I32),
                b.gep(ctx, [I32(0), I32(5)], inbounds=True, source_etype=CTX))
        b.ret(b.extract_value(r, 1))
        return shim


def mark_stack_base(b, ctx) -> None:
    """ctx.base = this frame's stack address (codegen.FunctionGen.guard_stack's reference)."""
    here = b.ptrtoint(b.alloca(I8), I64)
    b.store(here, b.gep(ctx, [I32(0), I32(6)], inbounds=True, source_etype=CTX))


def _signature_reason(func) -> str | None:
    ft = func.attrs["type"]
    for t in list(ft.params) + [ft.ret]:
        if not is_native_type(t):
            return f"type {t} in its signature"
    return None


def plan_module(module, entries: list[str], prefix: str) -> Plan:
    """Generate LLVM IR for every native function reachable from entries."""
    eq_methods = [d.methods["__eq__"] for d in module.classes.values()
                  if "__eq__" in d.methods and d.methods["__eq__"] in module.funcs]
    reachable = _reachable(module, list(entries) + eq_methods)
    reasons: dict = {}
    candidates = []
    for name in reachable:
        why = _signature_reason(module.funcs[name])
        if why:
            reasons[name] = f"{why} ({_where(module.funcs[name].loc)})"
        else:
            candidates.append(name)
    while True:
        mg, failed = _generate(module, candidates, prefix, reasons)
        if not failed:
            break
        candidates = [c for c in candidates if c not in failed]
    native_entries = []
    for e in entries:
        ft = module.funcs[e].attrs["type"] if e in candidates else None
        if ft is None:
            continue
        bad = [t for t in list(ft.params) + [ft.ret] if not crosses_boundary(t)]
        if bad:
            reasons[e] = (f"a value of type {bad[0]} would cross the call boundary "
                          f"({_where(module.funcs[e].loc)})")
            continue
        native_entries.append(e)
    plan = Plan(native=list(candidates), reasons=reasons, sites=mg.sites,
                recursive=bool(mg.recursive))
    for k, e in enumerate(native_entries):
        plan.entries[e] = mg.entry_shim(e, k)
    plan.llvm_ir = str(mg.llmod)
    return plan


def _generate(module, candidates, prefix, reasons):
    mg = ModuleGen(module, candidates, prefix)
    recursive = mg.recursive
    failed = set()
    for name in candidates:
        func = module.funcs[name]
        missing = [c for c in _callees(func) if c not in mg.llfns]
        if missing:
            reasons[name] = f"calls {missing[0]}, which runs on the VM ({_where(func.loc)})"
            failed.add(name)
            continue
        twin = _twin(mg, name, func)
        gen = FunctionGen(mg, func, name in recursive,
                          redirect={name: twin} if twin is not None else None)
        try:
            gen.run()
            if twin is not None:
                FunctionGen(mg, func, True, fn=twin, redirect={name: mg.llfns[name]}).run()
        except NotNative as e:
            loc = getattr(gen, "loc", func.loc)
            reasons[name] = f"{e} ({_where(loc)})"
            failed.add(name)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
            # a bug in the native tier (llvmlite refusing what an emitter built): the
            # function runs on the VM, and the reason says so
            loc = getattr(gen, "loc", func.loc)
            reasons[name] = (f"internal error in the native tier ({type(e).__name__}: {e}); "
                             f"please report it ({_where(loc)})")
            failed.add(name)
    if not failed and mg.unknown_class:
        for name, loc in mg.needs_class.items():
            reasons[name] = ("except clauses that need the class of an exception raised by "
                             f"a call ({_where(loc)}; {sorted(mg.unknown_class)[0]} can raise "
                             "one whose class is known only at run time)")
            failed.add(name)
    return mg, failed


TWIN_MAX_OPS = 60
"""Self-recursive functions up to this size get a twin (below)."""


def _twin(mg, name, func):
    """A copy of a small self-recursive function, the target of its self-calls (and it of
    the twin's): LLVM's inliner then inlines every other level of the recursion into the
    function, halving its calls (what gcc does to recursive code), which it never does for
    a function calling itself. Same code, same checks, same depth count: no semantic change."""
    if name not in _callees(func) or sum(1 for _ in func.walk()) > TWIN_MAX_OPS:
        return None
    fn = mg.llfns[name]
    twin = ir.Function(mg.llmod, fn.ftype, fn.name + "t")
    twin.linkage = "internal"
    return twin


def _where(loc) -> str:
    return f"{loc.file}:{loc.line}" if loc is not None else "?"


def _reachable(module, entries) -> list[str]:
    seen, order, stack = set(), [], list(reversed(entries))
    while stack:
        n = stack.pop()
        if n in seen or n not in module.funcs:
            continue
        seen.add(n)
        order.append(n)
        stack.extend(sorted(_callees(module.funcs[n])))
    return order


__all__ = ["Plan", "plan_module", "T"]
