"""Scripting modules: ember.script(module) -> ScriptModule, and ember.freeze.

A ScriptModule is a ScriptFunction for `forward` whose other compiled methods
(@torch.jit.export / @ember.export) are attributes. The module instance lives
in the artifact as a constant object; its state is copied at script time, so
later changes to the Python module do not reach the scripted one.
"""

from __future__ import annotations

from ember.api.core import ScriptFunction, _Compiled
from ember.errors import UnsupportedError


def is_scriptable_module(obj) -> bool:
    from ember.frontend.module_view import is_module
    return is_module(obj)


class ScriptModule(ScriptFunction):
    """A compiled module: calling it runs forward; other exported methods are attributes."""

    def __init__(self, compiled, entries: list[str], frozen: bool = False):
        super().__init__(None, entries[0], compiled=compiled)
        self.entries = list(entries)
        """Symbols of the compiled entry points (forward first, if defined)."""
        self.frozen = frozen
        self._methods = {e: ScriptFunction(None, e, compiled=compiled) for e in entries[1:]}

    def __getattr__(self, name):
        methods = self.__dict__.get("_methods", {})
        if name in methods:
            return methods[name]
        raise AttributeError(f"ScriptModule has no method {name!r} (compiled: "
                             f"{', '.join(self.__dict__.get('entries', []))})")

    @property
    def graph(self) -> str:
        """The IR as text, tensor data elided (print_module(sm.module) has it all)."""
        from ember.ir import print_module
        return print_module(self.module, tensor_data=False)

    def __repr__(self) -> str:
        kind = "frozen " if self.frozen else ""
        return f"<ember.ScriptModule {kind}{', '.join(self.entries)}>"


def script_module(obj, optimize: bool = True, methods=None, backend: str = "vm") -> ScriptModule:
    """Compile a module instance. With `optimize` (the default) the module is also frozen:
    its state was copied at script time and only its compiled methods can change it, so
    attributes no method assigns are constants, and batch norms fold into convolutions
    (results then differ from eager by float rounding only; optimize=False keeps the
    module's code as written)."""
    from ember.frontend.modules import compile_module
    module, entries = compile_module(obj, methods)
    settled = False
    if optimize:
        from ember.passes.freeze import freeze_module
        settled = freeze_module(module)
    _bind_quantized(module, optimize)
    return ScriptModule(_Compiled(module, optimize, settled, backend=backend), entries,
                        frozen=optimize)


def _bind_quantized(module, frozen: bool) -> None:
    """torch.ao static layers learn their inputs' qparams from the frozen IR
    (passes/ao_qparams.py)."""
    from ember.passes.ao_qparams import bind_ao_qparams, has_ao_ops
    if frozen:
        from ember.passes.quantize import fold_relu
        fold_relu(module)
    if not has_ao_ops(module):
        return
    if not frozen:
        raise UnsupportedError("a model with torch.ao quantized layers scripts only frozen "
                               "(optimize=True): its layers' input scales are bound then")
    bind_ao_qparams(module)
    from ember.passes.freeze import prune_symbols
    prune_symbols(module)


def freeze(obj, optimize: bool = True) -> ScriptModule:
    """A frozen ScriptModule (torch.jit.freeze's counterpart): module attributes no method
    assigns become constants, methods are specialized and inlined into the entry points, and
    the IR is refolded (conv + batch_norm folding included). ember.script(module) already
    does this; freeze also accepts a ScriptModule compiled with optimize=False."""
    from ember.passes.freeze import freeze_module
    if isinstance(obj, ScriptModule):
        module, entries = obj.module, obj.entries
        module = _copy(module)
    elif is_scriptable_module(obj):
        from ember.frontend.modules import compile_module
        module, entries = compile_module(obj)
    else:
        raise UnsupportedError(f"ember.freeze takes a module or a ScriptModule, not "
                               f"{type(obj).__name__}")
    settled = freeze_module(module)
    _bind_quantized(module, True)
    return ScriptModule(_Compiled(module, optimize, settled), entries, frozen=True)


def _copy(module):
    """An independent copy of an IR module; tensor data is shared (constants are never
    written in place by passes)."""
    import copy
    memo = {id(t.data): t.data for t in module.tensors.values()}
    return copy.deepcopy(module, memo)
