"""ember: a compiler for TorchScript's typed Python subset and a numpy-only lite runtime.

    import ember
    f = ember.script(fn)            # compile a Python function (or a module)
    f(3)                            # run it in process
    f.save("f.ember")               # one artifact file
    ember.mobile.load("f.ember")    # run it anywhere numpy runs

The compiler API is imported lazily so that `import ember.mobile` stays
free of lark, llvmlite and the compiler packages.
"""

__version__ = "0.1.0"

_LAZY = {
    "script": "ember.api.core",
    "CompilationUnit": "ember.api.core",
    "ScriptFunction": "ember.api.core",
    "freeze": "ember.api.core",
    "compile_source": "ember.api.core",
    "quantize": "ember.api.quantize",
    "grad": "ember.api.grad",
    "value_and_grad": "ember.api.grad",
    "train_step": "ember.api.train",
    "load_torchscript": "ember.torchscript.load",
    "trace": "ember.torchscript.load",
}


def export(fn):
    """Mark a module method as an entry point of the scripted module (like
    @torch.jit.export)."""
    fn.__ember_export__ = True
    return fn


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in ("mobile", "errors", "ops", "nn", "ir", "frontend", "passes", "interpreter",
                "optim", "autodiff"):
        import importlib

        return importlib.import_module("ember." + name)
    raise AttributeError(f"module 'ember' has no attribute {name!r}")
