"""ember's frontend: Python source -> typed SSA IR (parser, resolver, type checker, emitter).

Entry points (the contract with ember.script):

* `compile_function(fn, *, module=None, any_types=None) -> (ir.Module, entry symbol)`
  (any_types: parameter name -> type, the instance of a function with Any parameters)
* `compile_source(text, filename="<string>") -> ir.Module` (every top-level def is an entry)
"""


def compile_function(fn, *, module=None, any_types=None):
    from ember.frontend.compiler import compile_function as _cf
    return _cf(fn, module=module, any_types=any_types)


def compile_source(text, filename="<string>"):
    from ember.frontend.compiler import compile_source as _cs
    return _cs(text, filename)
