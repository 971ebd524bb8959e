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
    "script": "ember.script.api",
    "CompilationUnit": "ember.script.api",
    "ScriptFunction": "ember.script.api",
    "freeze": "ember.script.api",
    "compile_source": "ember.script.api",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    if name in ("mobile", "errors", "ops", "nn", "ir", "frontend", "passes", "interpreter"):
        import importlib

        return importlib.import_module("ember." + name)
    raise AttributeError(f"module 'ember' has no attribute {name!r}")
