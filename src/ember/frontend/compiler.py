"""The compilation context: which Python functions and classes go into one IR module.

`compile_function(fn)` compiles fn and, on demand, every function and class it
reaches (recursion and mutual recursion included). `compile_source(text)`
compiles every top-level def of a source string. Errors from every function
are collected and raised together (at most MAX_ERRORS), first error first.
"""

from __future__ import annotations

import types

import weakref

from ember.errors import (
    MAX_ERRORS,
    CompileError,
    Diagnostic,
    NameResolutionError,
    ParseError,
    Source,
    TypeCheckError,
    UnsupportedError,
)
from ember.frontend import ast as A
from ember.frontend.meta import (
    TORCH_DTYPES,
    MClass,
    MConst,
    MDtype,
    MException,
    MFunction,
    MModule,
    MOpaque,
    MTypeName,
    PyScope,
    UnitScope,
)
from ember.frontend.parser import parse_module
from ember.frontend.source import source_of
from ember.ir import Module
from ember.ops.scalar_complex import CMATH_CONSTANTS

_MODULE_STATE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
"""Per IR module: the functions and classes the frontend compiled into it."""

_DEFS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
"""Per Python function: (what its source depends on, Source, FunctionDef), read once."""


class FuncInfo:
    """One function to compile: its AST, source, scope and (once known) IR symbol."""

    def __init__(self, name, node: A.FunctionDef, source: Source, scope, pyfn=None,
                 owner=None):
        self.name = name
        self.node = node
        self.source = source
        self.scope = scope
        self.pyfn = pyfn
        self.owner = owner
        """The ClassInfo for methods."""
        self.symbol: str | None = None
        self.nested = False
        """A nested def or lambda (closure-converted)."""
        self.static = False
        """A @staticmethod of a class (no self parameter)."""
        self.property = False
        """A @property of a class: reading obj.name calls it."""
        self.state = "new"  # new -> compiling -> done
        self.func = None  # the FuncOp
        self.signature = None  # (param names, param types, defaults, declared return or None)
        self.any_types: dict | None = None
        """For one instance of a function with Any parameters: their types there."""
        self.any_instances: dict = {}
        """tuple of the Any parameters' types -> the FuncInfo compiled for them."""
        self.vararg_count: int | None = None
        """For one arity of a function with *args: how many values its args tuple holds."""
        self.vararg_instances: dict = {}
        """arity -> the FuncInfo compiled for calls passing that many extra arguments."""
        self.overloads: list = []
        """A method's @torch.jit._overload_method declarations (overloads.OverloadInfo):
        a call compiles the body for the first one its arguments fit."""


class ClassInfo:
    """A user class or NamedTuple referenced by compiled code."""

    def __init__(self, name, node: A.ClassDef, source: Source, scope, pyclass=None):
        self.name = name
        self.node = node
        self.source = source
        self.scope = scope
        self.pyclass = pyclass
        self.decl = None  # ember.ir.ClassDecl once declared
        self.kind = "class"
        self.methods: dict[str, FuncInfo] = {}
        self.defaults: dict = {}
        self.constants: dict = {}
        """Literal constants of the class body (`K = 3`): read at compile time."""
        self.reflected = False
        """A namedtuple made by a call (`collections.namedtuple("P", [...])`): no class
        statement; its fields, types and defaults are read from the class object."""


class Compiler:
    def __init__(self, module: Module | None = None):
        self.module = module if module is not None else Module()
        self.mutable_globals: dict = {}
        """Module-level variables functions assign (`global`): name -> type (globals_.py)."""
        self.errors: list[Diagnostic] = []
        self._infos: dict = {}
        self._classes: dict = {}
        self.class_by_decl: dict = {}
        self._symbols: set[str] = set(self.module.funcs) | set(self.module.classes)
        self.compiling: list[str] = []
        self.mute_depth: int | None = None
        """While a function probes types, its own diagnostics (at this depth) are dropped."""
        """Names of the functions being compiled (innermost last), for error notes."""
        self._queue: list[FuncInfo] = []

    @classmethod
    def for_module(cls, module: Module | None) -> "Compiler":
        """A compiler adding to `module`, reusing what earlier calls compiled into it."""
        c = cls(module)
        state = _MODULE_STATE.get(module) if module is not None else None
        if state is not None:
            infos, classes, by_decl = state
            # Passes may have removed functions since (DCE): those are compiled again.
            c._infos = {k: i for k, i in infos.items() if i.symbol in c.module.funcs}
            c._classes = {k: i for k, i in classes.items()
                          if i.decl is not None and i.decl.name in c.module.classes}
            c.class_by_decl = {k: i for k, i in by_decl.items() if k in c.module.classes}
        return c

    def remember(self) -> None:
        """Let a later compile_function(..., module=this module) reuse this work."""
        _MODULE_STATE[self.module] = (self._infos, self._classes, self.class_by_decl)

    # -- errors --------------------------------------------------------------------------------
    def report(self, err: CompileError) -> None:
        if self.mute_depth is not None and len(self.compiling) == self.mute_depth:
            return
        for d in err.diagnostics:
            if len(self.errors) < MAX_ERRORS:
                d.kind = type(err)
                if self.compiling and not d.notes:
                    d.notes.append(f"in {self.compiling[-1]}")
                    if len(self.compiling) > 1:
                        d.notes.append(f"which is compiled because {self.compiling[-2]} "
                                       "uses it")
                self.errors.append(d)

    def raise_errors(self) -> None:
        if not self.errors:
            return
        seen, unique = set(), []
        for d in self.errors:  # a nested def compiled twice reports its errors twice
            key = (d.message, d.span.filename if d.span else None,
                   (d.span.line, d.span.col) if d.span else None)
            if key not in seen:
                seen.add(key)
                unique.append(d)
        first = unique[0]
        cls = getattr(first, "kind", CompileError)
        raise cls(first.message, diagnostics=unique)

    # -- functions ------------------------------------------------------------------------------
    def function_info(self, fn) -> FuncInfo:
        key = getattr(fn, "__func__", fn)
        info = self._infos.get(key)
        if info is None:
            source, node = function_def(key)
            info = FuncInfo(key.__qualname__, node, source, PyScope(key, self), key)
            self._infos[key] = info
            declared = _torch_overloads(key)
            if declared:
                _attach_overloads(info, declared)
        return info

    def unique_symbol(self, name: str) -> str:
        sym, k = name.replace("<locals>.", ""), 1
        base = sym
        while sym in self._symbols:
            k += 1
            sym = f"{base}.{k}"
        self._symbols.add(sym)
        return sym

    def ensure_compiled(self, info: FuncInfo):
        """Compile info if needed; returns its FuncOp (None while it is being compiled)."""
        from ember.frontend.function import FunctionEmitter

        if info.state == "done" and info.func is not None and \
                self.module.funcs.get(info.symbol) is not info.func:
            info.state, info.func = "new", None  # removed from the module since: again
        if info.state == "done":
            return info.func
        if info.state == "compiling":
            return None
        info.state = "compiling"
        if info.node.decorators and not info.nested:
            self.compiling.append(function_label(info))
            check_decorators(self, info.node, method=info.owner is not None)
            self.compiling.pop()
        try:
            FunctionEmitter(self, info).run()
        except CompileError as e:
            self.report(e)
        info.state = "done"
        return info.func

    # -- classes ---------------------------------------------------------------------------------
    def class_meta(self, cls) -> MClass | None:
        info = self._classes.get(cls)
        table = getattr(self, "modules", None)
        if info is None and table is not None:
            module_info = table.info_of_class(cls)
            if module_info is not None:  # `M.helper(...)`, `M.K` of a module class being compiled
                return MClass(module_info)
        if info is None:
            try:
                source = source_of(cls)
            except UnsupportedError:
                from ember.frontend.classes import is_namedtuple_class, namedtuple_info
                if not is_namedtuple_class(cls):
                    return None
                info = self._classes[cls] = namedtuple_info(self, cls)
                return MClass(info)
            node = _find_class(parse_module(source), cls.__name__, source)
            info = ClassInfo(cls.__qualname__, node, source, PyScope(_scope_fn(cls), self), cls)
            self._classes[cls] = info
        return MClass(info)

    def declare_class(self, info: ClassInfo):
        from ember.frontend.classes import declare_class

        if info.decl is None and info.kind != "error":
            from ember.frontend.polymorph import declare_base_first
            declare_base_first(self, info)  # a subclass copies a complete base
        if info.decl is None and info.kind != "error":
            self.compiling.append(f"class '{info.name.replace('<locals>.', '')}'")
            info.finding_fields = True  # cleared once the fields are known
            try:
                declare_class(self, info)
            finally:
                self.compiling.pop()
                info.finding_fields = False
            if info.decl is None:
                info.kind = "error"  # reported once
        return info.decl

    def module_object_meta(self, obj):
        """Hook for module instances (ember.nn / torch.nn) found in globals."""
        return None


def function_label(info) -> str:
    """How notes name a function: "function 'f'" (qualname without <locals>)."""
    return f"function '{info.name.replace('<locals>.', '')}'"


_NO_OP_DECORATORS = {"torch.jit.export", "jit.export", "torch.jit.script", "jit.script",
                     "ember.export", "ember.script", "torch.jit.script_method", "nn.export",
                     "ember.nn.export", "export"}
_METHOD_DECORATORS = {"staticmethod", "classmethod", "property"}


def decorator_name(d) -> str:
    """The dotted name of a decorator expression (`torch.jit.export`), '' if it has none."""
    return dotted_name(d.func if isinstance(d, A.Call) else d, A.Attribute, A.Name)


def dotted_name(node, attribute: type, name: type) -> str:
    """`a.b.c` of a chain of attribute nodes on a name node ('' for anything else), in
    ember's AST or CPython's (whose classes are passed)."""
    parts = []
    while isinstance(node, attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


def check_decorators(c, node: A.FunctionDef, method: bool) -> None:
    """Report decorators ember cannot honour (they would change what the function does)."""
    for d in node.decorators:
        name = decorator_name(d)
        if name in _NO_OP_DECORATORS or (method and name in _METHOD_DECORATORS):
            continue
        if name.endswith("jit.unused"):
            continue  # compiled as a raise (FunctionEmitter.run)
        if name.endswith("jit.ignore"):
            continue  # compiled: ember has no Python to call back at run time
        shown = name or "this decorator"
        msg = (f"decorator @{shown} is not supported: ember compiles the undecorated "
               "function, which would change its meaning (allowed: @torch.jit.export, "
               "@torch.jit.script, @torch.jit.ignore, @ember.export" +
               (", @staticmethod, @classmethod, @property" if method else "") + ")")
        c.report(UnsupportedError(msg, d.span))


def _drops(d) -> bool:
    """`@torch.jit.ignore(drop=True)`: TorchScript's old spelling of @torch.jit.unused."""
    return isinstance(d, A.Call) and decorator_name(d).endswith("jit.ignore") and any(
        k.arg == "drop" and isinstance(k.value, A.Constant) and k.value.value is True
        for k in d.keywords)


def is_unused(info) -> bool:
    """Whether info's function is marked @torch.jit.unused (or torch.jit.ignore(drop=True)):
    TorchScript compiles its signature and replaces its body by a raise."""
    if any(decorator_name(d).endswith("jit.unused") or _drops(d) for d in info.node.decorators):
        return True
    modifier = getattr(getattr(info.pyfn, "__func__", info.pyfn), "_torchscript_modifier", None)
    return getattr(modifier, "name", "") in ("UNUSED", "_DROP")


def _scope_fn(cls):
    """A function whose globals (and closure) are the class body's: one of its methods, but
    not one made elsewhere (a NamedTuple's __new__ comes from collections' own namespace,
    where the module's imports, such as Optional, are not defined)."""
    funcs = [f for f in (getattr(v, "__func__", v) for v in vars(cls).values())
             if hasattr(f, "__globals__")]
    for f in funcs:
        if f.__globals__.get("__name__") == cls.__module__:
            return f
    for f in funcs:  # e.g. a class made by exec() in globals without a __name__
        if not str(f.__globals__.get("__name__")).startswith(("namedtuple_", "collections")):
            return f
    import sys

    class _Fake:
        __globals__ = vars(sys.modules.get(cls.__module__)) if cls.__module__ in sys.modules \
            else {}
        __closure__ = None
    return _Fake


def function_def(fn) -> tuple[Source, A.FunctionDef]:
    """The Source and ember AST of Python function fn, read once per function (again if its
    code, name or __wrapped__ changed since)."""
    stamp = (fn.__code__, fn.__name__, getattr(fn, "__wrapped__", None))
    hit = _DEFS.get(fn)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    source = source_of(fn)
    node = _find_def(parse_module(source), fn.__name__, source)
    _DEFS[fn] = (stamp, source, node)
    return source, node


def _find_def(module: A.Module, name: str, source: Source) -> A.FunctionDef:
    for node in module.body:
        if isinstance(node, A.FunctionDef) and node.name == name:
            return node
    for node in module.body:
        if isinstance(node, A.FunctionDef):
            return node
    raise ParseError(f"no function definition named {name!r} in its source",
                     module.span)


def _find_class(module: A.Module, name: str, source: Source) -> A.ClassDef:
    for node in module.body:
        if isinstance(node, A.ClassDef) and node.name == name:
            return node
    raise ParseError(f"no class definition named {name!r} in its source", module.span)


def _any_params(info) -> bool:
    from ember.frontend.signature import any_params
    return bool(any_params(None, info))


def has_varargs(node) -> bool:
    return isinstance(node, A.FunctionDef) and any(a.kind == "star" for a in node.args)


# ----------------------------------------------------------------------------- entry points


def compile_function(fn, *, module: Module | None = None,
                     any_types: dict | None = None) -> tuple[Module, str]:
    """Compile a Python function (and what it reaches) into an IR module.

    With `module`, the functions and classes are added to that module (their symbol
    names avoid the ones it already has); the entry is appended to module.entries.
    Returns the module and the entry's symbol name.
    """
    c = Compiler.for_module(module)
    funcs, classes = set(c.module.funcs), set(c.module.classes)
    try:
        info = c.function_info(fn)
        if any_types is not None:  # an instance for the types of the values it is given
            base = info
            info = FuncInfo(base.name, base.node, base.source, base.scope, base.pyfn,
                            base.owner)
            info.static, info.nested, info.any_types = base.static, base.nested, any_types
        from ember.frontend.kwargs import has_kwargs
        if has_kwargs(info.node):
            raise UnsupportedError("a function with **kwargs is compiled where it is called; "
                                   "it cannot be an entry point", info.node.name_span or
                                   info.node.span)
        if info.symbol is None:
            info.symbol = c.unique_symbol(info.name)
        c.ensure_compiled(info)
        c.raise_errors()
    except CompileError as e:
        if module is not None:  # leave the caller's module as it was
            for name in set(c.module.funcs) - funcs:
                c.module.remove_func(name)
            for name in set(c.module.classes) - classes:
                del c.module.classes[name]
        raise e from None
    c.remember()
    if info.symbol not in c.module.entries:
        c.module.entries.append(info.symbol)
    return c.module, info.symbol


def compile_source(text: str, filename: str = "<string>") -> Module:
    """Compile every top-level def of a source string; each is an entry of the module."""
    c = Compiler()
    source = Source(filename, text)
    c.module.sources[filename] = text
    tree = parse_module(source)
    table: dict = string_frontend_names()
    scope = UnitScope(table, c)
    defs = []
    declared: dict = {}  # name -> its @torch.jit._overload declarations so far
    for node in tree.body:
        if isinstance(node, A.FunctionDef) and _is_overload_declaration(node):
            declared.setdefault(node.name, []).append(node)
            continue
        _declare_toplevel(c, node, table, scope, source, defs)
        if isinstance(node, A.FunctionDef) and node.name in declared:
            _attach_overloads(table[node.name].info, declared.pop(node.name))
    c.raise_errors()
    from ember.frontend.globals_ import declare_mutable_globals
    declare_mutable_globals(c, tree, table)
    # A function with *args is compiled per call arity where it is called (userfuncs); an
    # overloaded one once per declaration where it is called (overloads).
    # A generator function is inlined into the loops that iterate it (generators).
    from ember.frontend.generators import check_generator_def, is_generator_def
    for info in defs:
        if is_generator_def(info.node):
            check_generator_def(c, info)
    from ember.frontend.kwargs import has_kwargs
    defs = [info for info in defs if not has_varargs(info.node) and not _any_params(info)
            and not is_generator_def(info.node) and not has_kwargs(info.node)
            and not info.overloads]
    for info in defs:
        info.symbol = info.symbol or c.unique_symbol(info.node.name)
    for info in defs:
        c.ensure_compiled(info)
    c.raise_errors()
    c.module.entries.extend(info.symbol for info in defs)
    return c.module


def _is_overload_declaration(node) -> bool:
    """`@torch.jit._overload` on a top-level def: one signature of the function that
    follows (TorchScript's function overloads)."""
    return any(decorator_name(d).rsplit(".", 1)[-1] == "_overload" for d in node.decorators)


def _torch_overloads(fn) -> list:
    """The `@torch.jit._overload` declarations of a Python function, as torch recorded
    them when its module ran (none when torch is not loaded)."""
    import sys
    internal = sys.modules.get("torch._jit_internal")
    if internal is None or not isinstance(fn, types.FunctionType):
        return []
    try:
        fns = internal._get_fn_overloads(internal._qualified_name(fn)) or []
    except Exception:  # noqa: BLE001 - torch's bookkeeping, not the user's program
        return []
    return [function_def(f)[1] for f in fns]


def _attach_overloads(impl, declarations) -> None:
    from ember.frontend.overloads import OverloadInfo
    impl.overloads = [OverloadInfo(impl, i, lambda d=d: d) for i, d in enumerate(declarations)]


_TYPING_NAMES = ("List", "Dict", "Tuple", "Optional", "Union", "Any", "Final", "NamedTuple",
                 "Callable", "Set", "Iterator", "Iterable", "Generator")


def string_frontend_names() -> dict:
    """The names a CompilationUnit's source may use with no import, as TorchScript's
    string frontend resolves them: typing's constructs, Tensor and torch (and math, cmath,
    warnings, F for torch.nn.functional, nn for torch.nn and OrderedDict, which TorchScript's CompilationUnit
    leaves undefined but its Python frontend resolves through a function's globals, where
    test files and models import them). The source's own imports and definitions take
    precedence."""
    table = {name: MTypeName(name) for name in _TYPING_NAMES}
    table["Tensor"] = MTypeName("Tensor")
    table["torch"] = MModule("torch")
    table["math"] = MModule("math")
    table["cmath"] = MModule("cmath")
    table["warnings"] = MModule("warnings")  # warnings.warn, as test files import it
    table["F"] = MModule("torch.nn.functional")  # the conventional aliases of torch's
    table["nn"] = MModule("torch.nn")             # test files and models
    table["OrderedDict"] = _from_import("collections", "OrderedDict")
    table["Enum"] = MTypeName("Enum")  # TorchScript's tests import it; their sources use it
    table["Future"] = MTypeName("Future")  # Future[T]: a builtin type name of TorchScript's
    return table


def _declare_toplevel(c, node, table, scope, source, defs):
    if isinstance(node, A.FunctionDef):
        info = FuncInfo(node.name, node, source, scope)
        table[node.name] = MFunction(info)
        defs.append(info)
    elif isinstance(node, A.ClassDef):
        info = ClassInfo(node.name, node, source, scope)
        table[node.name] = MClass(info)
    elif isinstance(node, A.Import):
        for dotted, asname in node.names:
            if asname:
                table[asname] = MModule(dotted)
            else:
                table[dotted.split(".")[0]] = MModule(dotted.split(".")[0])
    elif isinstance(node, A.ImportFrom):
        for name, asname in node.names:
            table[asname or name] = _from_import(node.module or "", name)
    elif isinstance(node, A.Assign) and _namedtuple_call(c, node) is not None:
        cls = _namedtuple_call(c, node)
        table[node.targets[0].id] = MClass(ClassInfo(cls.name, cls, source, scope))
    elif isinstance(node, (A.Assign, A.AnnAssign)):
        _declare_constant(c, node, table)
    elif isinstance(node, A.Expr) and isinstance(node.value, A.Constant):
        pass  # a docstring
    elif isinstance(node, A.Pass):
        pass
    else:
        c.report(UnsupportedError("only imports, constants, defs and classes may appear at "
                                  "the top level of a CompilationUnit", node.span))


def _from_import(module: str, name: str):
    if module in ("typing", "enum"):
        return MTypeName(name)
    if module == "torch" and name in TORCH_DTYPES:
        return MDtype(TORCH_DTYPES[name])
    if module == "torch" and name == "Tensor":
        return MTypeName("Tensor")
    if module in ("torch.jit", "torch.futures") and name == "Future":
        return MTypeName("Future")
    if module == "torch" and name == "nn":
        return MModule("torch.nn")
    if module == "torch.nn" and name == "functional":
        return MModule("torch.nn.functional")
    if module == "cmath" and name in CMATH_CONSTANTS:
        from ember.frontend.meta import MConst
        return MConst(CMATH_CONSTANTS[name])
    if module == "math" and name in ("pi", "e", "tau", "inf", "nan"):
        import math

        from ember.frontend.meta import MConst
        return MConst(getattr(math, name))
    if module in ("math", "cmath", "torch", "torch.nn.functional"):
        from ember.frontend.meta import MOpFunc
        return MOpFunc(f"{module}.{name}")
    if module == "collections" and name == "OrderedDict":
        from ember.frontend.meta import MBuiltin
        return MBuiltin("dict")  # as in TorchScript: dicts keep their insertion order
    if module == "builtins" and name in MException.__dict__:
        return MException(name)
    return MModule(f"{module}.{name}")


def _namedtuple_call(c, node):
    """For `P = namedtuple("P", ["a", "b"])` (or collections.namedtuple, with a
    space- or comma-separated field string, `defaults=`) and `P = NamedTuple("P", [("a",
    int), ...])` at the top level of a source: the NamedTuple class statement it stands
    for (namedtuple's fields are Tensors, TorchScript's rule), else None."""
    if len(node.targets) != 1 or not isinstance(node.targets[0], A.Name):
        return None
    call = node.value
    if not isinstance(call, A.Call):
        return None
    f = call.func
    kind = f.id if isinstance(f, A.Name) else f.attr if isinstance(f, A.Attribute) else None
    if kind not in ("namedtuple", "NamedTuple") or len(call.args) != 2 or \
            not isinstance(call.args[0], A.Constant) or not isinstance(call.args[0].value, str):
        return None
    sp, spec = node.span, call.args[1]
    fields = []  # (name, annotation node)
    if kind == "namedtuple":
        if isinstance(spec, A.Constant) and isinstance(spec.value, str):
            names = spec.value.replace(",", " ").split()
        elif isinstance(spec, (A.List, A.Tuple)) and all(
                isinstance(e, A.Constant) and isinstance(e.value, str) for e in spec.elts):
            names = [e.value for e in spec.elts]
        else:
            return None
        fields = [(n, A.Name(sp, "Tensor")) for n in names]
    else:
        if not isinstance(spec, (A.List, A.Tuple)):
            return None
        for e in spec.elts:
            if not (isinstance(e, A.Tuple) and len(e.elts) == 2 and
                    isinstance(e.elts[0], A.Constant) and isinstance(e.elts[0].value, str)):
                return None
            fields.append((e.elts[0].value, e.elts[1]))
    defaults = []
    for k in call.keywords:
        if kind == "namedtuple" and k.arg == "defaults" and isinstance(k.value, (A.List, A.Tuple)):
            defaults = list(k.value.elts)
        else:
            c.report(UnsupportedError(f"{kind}() takes no keyword argument {k.arg!r} here",
                                      k.span))
    if len(defaults) > len(fields):
        c.report(TypeCheckError("Got more default values than field names", call.span))
        defaults = []
    first_default = len(fields) - len(defaults)
    body = [A.AnnAssign(sp, A.Name(sp, n), ann,
                        defaults[i - first_default] if i >= first_default else None)
            for i, (n, ann) in enumerate(fields)]
    return A.ClassDef(sp, call.args[0].value, [A.Name(sp, "NamedTuple")], [], body or [A.Pass(sp)])


def _declare_constant(c, node, table):
    target = node.targets[0] if isinstance(node, A.Assign) else node.target
    value = node.value
    from ember.frontend.env import walk
    bad = next((n for n in walk(value) if isinstance(n, (A.Yield, A.Await))), None) \
        if value is not None else None
    if bad is not None:  # CPython's SyntaxError
        word = "yield" if isinstance(bad, A.Yield) else "await"
        c.report(ParseError(f"'{word}' outside function", bad.span))
        return
    if isinstance(target, A.Name) and value is not None:
        const = _literal(value)
        if const is not _NO:
            table[target.id] = MConst(const)
            return
    if isinstance(target, A.Name):
        # Not a constant (a list, a computed value): fine unless compiled code reads it.
        kind = {A.List: "a list", A.Dict: "a dict", A.ListComp: "a list",
                A.DictComp: "a dict"}.get(type(value), "not a literal constant")
        table[target.id] = MOpaque(target.id, kind)
        return
    c.report(UnsupportedError("a top-level assignment must give one name a literal constant "
                              "(int, float, str, bool, None or a tuple of them)", node.span))


_NO = object()


def _literal(node):
    if isinstance(node, A.Constant) and isinstance(node.value, (int, float, complex, str, bool,
                                                                  type(None))):
        return node.value
    if isinstance(node, A.UnaryOp) and node.op == "-" and isinstance(node.operand, A.Constant) \
            and isinstance(node.operand.value, (int, float, complex)):
        return -node.operand.value
    if isinstance(node, A.BinOp) and node.op in ("+", "-"):  # a complex literal: 1 - 2j
        a, b = _literal(node.left), _literal(node.right)
        if all(type(x) in (int, float, complex) for x in (a, b)) and \
                complex in (type(a), type(b)):
            return a + b if node.op == "+" else a - b
    if isinstance(node, A.Tuple):
        items = [_literal(e) for e in node.elts]
        return _NO if _NO in items else tuple(items)
    return _NO


__all__ = ["compile_function", "compile_source", "Compiler", "FuncInfo", "ClassInfo",
           "NameResolutionError", "MException"]
