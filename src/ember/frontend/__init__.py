"""ember's frontend: Python source -> typed SSA IR (parser, resolver, type checker, emitter)."""


def compile_function(fn):
    from ember.frontend.compiler import compile_function as _cf
    return _cf(fn)


def compile_source(text, filename="<string>"):
    from ember.frontend.compiler import compile_source as _cs
    return _cs(text, filename)
