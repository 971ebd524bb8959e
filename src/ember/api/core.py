"""The public compiler API: `ember.script`, `ember.CompilationUnit`, `ScriptFunction`.

    f = ember.script(fn)       # compile fn (and what it calls) -> ScriptFunction
    f(3)                       # run in process on the lite runtime's engine
    f.graph                    # the optimized IR, as text
    f.code                     # the bytecode disassembly
    f.save("f.ember")          # one artifact; ember.mobile.load("f.ember") runs it

The in-process call and the loaded artifact run the same bytecode through the
same translator (`ember.mobile.build`), so they cannot disagree.
"""

from __future__ import annotations

import functools
import gc
import inspect
import types

from ember.errors import UnsupportedError

BACKENDS = ("vm", "llvm")
"""Execution engines ember.script accepts: the VM, and native code through LLVM (what the
native tier cannot compile runs on the VM; `f.backend` and `f.fallback_reason` say)."""


def no_gc(fn):
    """Run fn with the cyclic garbage collector paused: compiling allocates many small
    objects, and with torch imported every full collection walks its whole heap (half of
    a model's script time). The collector's previous state is restored."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper


@no_gc
def script(obj, backend: str = "vm", optimize: bool = True):
    """Compile a Python function (or an ember.nn / torch.nn module) into a ScriptFunction."""
    _check_backend(backend)
    if isinstance(obj, ScriptFunction):
        return obj
    if isinstance(obj, type):
        raise UnsupportedError(
            f"ember.script got the class {obj.__name__}; script an instance of a module "
            f"(ember.script({obj.__name__}())) or a function")
    if isinstance(obj, (types.FunctionType, types.MethodType)):
        from ember.frontend import compile_function

        if _may_take_any(obj):
            from ember.api.any_entry import AnyScript, _annotation_per_call
            if any(_annotation_per_call(a) for p, a in obj.__annotations__.items()
                   if p != "return"):
                return AnyScript(obj, lambda any_types: ScriptFunction(
                    *compile_function(obj, any_types=any_types), optimize=optimize,
                    backend=backend))
        module, entry = compile_function(obj)
        return ScriptFunction(module, entry, optimize=optimize, backend=backend)
    from ember.api.modules import is_scriptable_module, script_module

    if is_scriptable_module(obj):
        return script_module(obj, optimize=optimize, backend=backend)
    if inspect.isclass(obj):
        raise UnsupportedError(
            f"ember.script got the class {obj.__name__}; script an instance of a module "
            "(ember.script(MyModule())) or a function")
    raise UnsupportedError(
        f"ember.script cannot compile a {type(obj).__name__}; pass a Python function, an "
        "ember.nn.Module or a torch.nn.Module")


def _may_take_any(fn) -> bool:
    """A parameter annotation that may be Any or Tuple[T, ...] (checked precisely by
    ember.api.any_entry, imported only then)."""
    anns = getattr(fn, "__annotations__", None) or {}
    return any("Any" in repr(a) or "..." in repr(a) for p, a in anns.items() if p != "return")


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise UnsupportedError(
            f"backend {backend!r} is not available; ember offers {', '.join(BACKENDS)}")


class _Compiled:
    """One IR module lowered to one bytecode program, loaded once for in-process calls.

    settled: freeze_module settled the module, so the default pipeline's leading cleanup
    passes would find nothing to do (passes/freeze.py after_settled)."""

    def __init__(self, module, optimize: bool, settled: bool = False, backend: str = "vm"):
        from ember import mobile
        from ember.interpreter.pipeline import compile_to_program

        self.module = module
        epilogues = optimize and backend == "llvm"
        if optimize and settled:
            _run_after_freeze(module)
            optimize = False  # optimized: what is left is verifying and lowering
        if epilogues:
            optimize = _fuse_epilogues(module, optimize)
        self.native = None
        self._loaded = self._program = None
        if backend == "llvm":
            from ember.ir import verify_module
            from ember.llvm import NativeModule

            verify_module(module)  # (lowered to bytecode when first needed: `program`)
            self.native = NativeModule(module, list(module.entries))
        else:
            self._program = compile_to_program(module, optimize=optimize)
            self._loaded = mobile.build(self._program)

    @property
    def program(self):
        """The bytecode program (with the LLVM backend: lowered when first needed — a
        save, a fallback — from the module the passes left)."""
        if self._program is None:
            from ember.interpreter.pipeline import compile_to_program

            self._program = compile_to_program(self.module, optimize=False)
        return self._program

    @property
    def loaded(self):
        """The program loaded on the VM. With the LLVM backend it is built when first
        needed (a fallback, a deopt, an argument the native entry does not take): a
        native entry never builds it."""
        if self._loaded is None:
            from ember import mobile

            self._loaded = mobile.build(self.program, fused_group=_native_fused_group,
                                        kernel_map=_native_kernel)
        return self._loaded

    def entry(self, name: str):
        """(callable, backend, fallback reason) for entry `name`."""
        if self.native is None:
            return self.loaded.entry(name), "vm", None
        fn = self.native.function(name, lambda: self.loaded.entry(name), self.module.sources)
        if fn is None:
            from ember.llvm.graph import planned  # whole-function native plans

            return planned(self.module, name, self.loaded.entry(name)), "vm", \
                self.native.reasons.get(name, "not compiled natively")
        return fn, "llvm", None


def _native_kernel(name: str, kernel):
    """The LLVM backend's kernel for operator `name`: native twins exist for tensor
    operators only (llvm/kernels.NATIVE, a test checks), so scalar programs never import
    the kernels (a cache hit in a fresh process stays cheap)."""
    if not name.startswith("tensor."):
        return kernel
    from ember.llvm.kernels import native_kernel

    return native_kernel(name, kernel)


def _native_fused_group(group):
    """The LLVM backend's fused group (imported only by programs that have one)."""
    from ember.llvm.fused import NativeFusedGroup

    return NativeFusedGroup(group)


def _fuse_epilogues(module, optimize: bool) -> bool:
    """The LLVM backend runs a producer and its activation as one kernel: after the
    pipeline (run here when still due), pair them (passes/fuse_epilogue.py). Returns the
    `optimize` left for compile_to_program (False: done)."""
    from ember.interpreter.pipeline import run_passes
    from ember.passes.fuse_epilogue import FuseEpilogue

    if optimize:
        run_passes(module)
    FuseEpilogue().run(module)
    return False


def _run_after_freeze(module) -> None:
    from ember.passes.freeze import after_settled
    from ember.passes.manager import PassManager, default_pipeline

    passes = after_settled(default_pipeline())
    if passes:
        PassManager(passes, verify_each=False).run(module)


class ScriptFunction:
    """A compiled entry point (and the module it belongs to)."""

    def __init__(self, module, entry: str, optimize: bool = True, compiled=None,
                 backend: str = "vm"):
        self._compiled = compiled or _Compiled(module, optimize, backend=backend)
        self.entry = entry
        """Symbol name of the entry function in `module`."""
        self._fn, self.backend, self.fallback_reason = self._compiled.entry(entry)
        """backend: where calls run ("llvm" or "vm"); fallback_reason: why not natively
        (the first construct that kept it on the VM, with file:line), None if native."""
        if getattr(self._compiled.module, "enum_pyclasses", None):
            from ember.frontend.enums import python_results
            convert = python_results(self._compiled.module, entry)
            if convert is not None:  # Enum members come back as the Python Enum's
                fn = self._fn
                self._fn = lambda *a, **k: convert(fn(*a, **k))

    @property
    def module(self):
        """The IR module after optimization."""
        return self._compiled.module

    @property
    def program(self):
        """The bytecode program (what `save` writes)."""
        return self._compiled.program

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    @property
    def graph(self) -> str:
        """The IR of the module, as text (print -> parse -> print is exact)."""
        from ember.ir import print_module

        return print_module(self.module)

    @property
    def code(self) -> str:
        """The bytecode disassembly with source lines."""
        from ember import mobile

        return mobile.disassemble(self.program)

    def native_report(self, *args, **kwargs):
        """Where each tensor op of this function runs under `backend="llvm"`: fused native
        groups, native kernels, numpy (with the reason), views (ember/llvm/report.py).
        With arguments, one call is run and recorded; without, the report is static.
        `str(report)` is a table, `report.dot()` a Graphviz graph."""
        from ember.llvm.report import recorded_report, static_report

        if self._compiled.native is None:
            raise UnsupportedError(
                "native_report() describes the LLVM backend; script with backend=\"llvm\"")
        if args or kwargs:
            return recorded_report(self._compiled, self.entry, self.backend, args, kwargs)
        return static_report(self.module, self.entry, self.backend)

    def save(self, path, durable: bool = False) -> None:
        """Write one artifact file (atomically: a temporary file renamed over `path`);
        `ember.mobile.load(path)` runs it. durable=True also fsyncs it before the rename
        (and the directory after), so it survives a power loss.

        The artifact's default entry is this function; the module's other entry
        points are attributes of the loaded object.
        """
        from ember.interpreter.artifact_writer import write_artifact

        write_artifact(self.program, path, default_entry=self.entry, durable=durable)

    def __repr__(self) -> str:
        return f"<ember.ScriptFunction {self.entry}>"


class CompilationUnit:
    """Compile a source string; every top-level def is an attribute (a ScriptFunction).

        cu = ember.CompilationUnit('''
        def fib(n: int) -> int:
            return n if n < 2 else fib(n - 1) + fib(n - 2)
        ''')
        cu.fib(10)
    """

    @no_gc
    def __init__(self, source: str, filename: str = "<string>", optimize: bool = True,
                 backend: str = "vm"):
        from ember.frontend import compile_source

        _check_backend(backend)
        compiled = _Compiled(compile_source(source, filename), optimize, backend=backend)
        self.module = compiled.module
        self._functions = {name: ScriptFunction(None, name, compiled=compiled)
                           for name in self.module.entries}
        from ember.api.any_entry import AnyEntry, DtypeEntry, any_entries, by_dtype_only

        def make(text, fname):
            return CompilationUnit(text, fname, optimize, backend)

        for name, node in any_entries(source).items():  # compiled per argument types
            if name in self._functions and by_dtype_only(node):
                self._functions[name] = DtypeEntry(source, filename, node, make,
                                                   self._functions[name])
            else:
                self._functions.setdefault(name, AnyEntry(source, filename, node, make))

    def __getattr__(self, name):
        fns = self.__dict__.get("_functions", {})
        if name in fns:
            return fns[name]
        raise AttributeError(f"CompilationUnit has no function {name!r}")

    @property
    def functions(self) -> list[str]:
        return list(self._functions)


@no_gc
def freeze(obj):
    """Turn a scripted module's attributes into constants and refold (see ember.script)."""
    from ember.api.modules import freeze as _freeze

    return _freeze(obj)


def compile_source(source: str, filename: str = "<string>"):
    """The IR module for a source string (no lowering)."""
    from ember.frontend import compile_source as _cs

    return _cs(source, filename)


@no_gc
def _import_compiler() -> None:
    """Import the compiler with this module, as `import torch` imports TorchScript's: the
    first ember.script then compiles rather than imports (about 50 ms of modules). Only
    `from ember import script` (or the first use of ember.script) gets here; ember.mobile
    never imports this module, so the lite runtime stays light."""
    import importlib

    from ember.passes.registry import PASSES

    for name in _COMPILER_MODULES + tuple(module for module, _ in PASSES.values()):
        importlib.import_module(name)


_COMPILER_MODULES = (
    "ember.api.modules", "ember.frontend", "ember.frontend.modules",
    "ember.frontend.module_view", "ember.frontend.function", "ember.frontend.calls",
    "ember.frontend.classes", "ember.frontend.module_exprs", "ember.frontend.userfuncs",
    "ember.frontend.tensors", "ember.frontend.builtins_", "ember.frontend.annotations",
    "ember.frontend.typing_", "ember.frontend.signature", "ember.frontend.closures",
    "ember.frontend.comprehensions", "ember.frontend.fstrings", "ember.frontend.prelude",
    "ember.frontend.generators", "ember.frontend.kwargs", "ember.frontend.inherit",
    "ember.frontend.sets", "ember.frontend.iterators", "ember.frontend.enums",
    "ember.frontend.dataclasses_", "ember.frontend.globals_",
    "ember.nn", "ember.nn.from_torch",
    "ember.passes.manager", "ember.passes.ao_qparams", "ember.passes.quantize",
    "ember.interpreter.pipeline", "ember.interpreter.lower",
    "ember.interpreter.prune", "ember.ir.schema", "ember.mobile")
"""What compiling a function or a module imports (tests/unit/api/test_import_compiler.py
checks that the first compile imports nothing more)."""

_import_compiler()
