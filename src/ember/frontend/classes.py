"""User classes and NamedTuples: declaration, construction, fields and methods.

A class's fields come from annotations in its body (`x: int`) and from
`self.x = ...` in `__init__` (annotated or inferred from the value). Methods
compile to module functions `Class.method` whose first parameter is the
object. typing.NamedTuple classes are immutable records with the same
field machinery; they unpack and index like tuples.
"""

from __future__ import annotations

from ember.errors import NameResolutionError, TypeCheckError, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import FuncInfo, decorator_name
from ember.frontend.meta import MBoundMethod, MConst, MFunction, MTypeName
from ember.frontend.overloads import OverloadInfo, is_overload_decorator
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import ClassDecl, Loc
from ember.ir import types as T


def declare_class(c, info) -> None:
    """Create the ClassDecl (fields from annotations), then compile __init__ to find the rest."""
    from ember.frontend.function import FunctionEmitter

    node = info.node
    kind = "namedtuple" if info.reflected else _kind(c, info)
    if kind is None:
        return
    info.kind = kind
    name = c.unique_symbol(info.name.replace("<locals>.", ""))
    decl = ClassDecl(name, [], kind, Loc.of_span(node.span))
    info.decl = decl
    c.module.add_class(decl)
    c.class_by_decl[name] = info
    if info.reflected:
        _reflected_fields(c, info, decl)
        return
    if kind == "enum":
        from ember.frontend.enums import declare_enum
        decl.kind = info.kind = "class"
        if not declare_enum(c, info, decl):
            info.decl = None
            return
        _special_methods(c, info, decl)
        return
    probe = FunctionEmitter(c, FuncInfo(info.name, _dummy_def(node), info.source, info.scope))
    stubs: dict = {}
    for stmt in node.body:
        const = _class_constant(stmt)
        if const is not _NOT_CONST:
            info.constants[const[0]] = const[1]
        elif isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name) and \
                init_var_type(stmt.annotation) is not None:
            if stmt.value is not None and _is_literal(stmt.value):  # `p: InitVar[int] = 2`:
                from ember.frontend.compiler import _literal  # __init__'s parameter only,
                info.constants[stmt.target.id] = _literal(stmt.value)  # and Cls.p = 2
        elif isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name):
            decl.fields.append((stmt.target.id, probe.ann.resolve(stmt.annotation)))
            if stmt.value is not None:
                info.defaults[stmt.target.id] = stmt.value
                if kind == "class" and _is_literal(stmt.value):
                    # `count: int = 0`: also the class attribute Cls.count (an object's
                    # own field is read first, as Python finds it in the instance dict)
                    from ember.frontend.compiler import _literal
                    info.constants.setdefault(stmt.target.id, _literal(stmt.value))
        elif isinstance(stmt, A.FunctionDef):
            if any(is_overload_decorator(decorator_name(d)) for d in stmt.decorators):
                stubs.setdefault(stmt.name, []).append(stmt)
                continue
            if not _method_decorators_ok(c, stmt):
                continue
            add_method(c, info, stmt, info.source, info.scope)
        elif not (isinstance(stmt, A.Pass) or (isinstance(stmt, A.Expr) and
                                                isinstance(stmt.value, A.Constant))):
            c.report(UnsupportedError("a class body may hold field annotations (x: int), "
                                      "literal constants (K = 3) and methods only", stmt.span))
    if kind == "class":
        from ember.frontend.dataclasses_ import add_dataclass_methods, dataclass_options
        try:
            opts = dataclass_options(info)
            if opts:
                add_dataclass_methods(c, info, opts)
        except UnsupportedError as e:
            c.report(e if e.span is not None else UnsupportedError(e.message, node.span))
            return
    for name, decls in stubs.items():
        if name in info.methods:
            info.methods[name].overloads = [OverloadInfo(info.methods[name], i,
                                                         lambda d=d: d)
                                            for i, d in enumerate(decls)]
    if getattr(info, "base", None) is not None:
        from ember.frontend.inherit import inherit
        if not inherit(c, info, decl):
            return
    if kind == "class" and "__init__" in info.methods:
        init = info.methods["__init__"]
        from ember.frontend.userfuncs import ensure_symbol
        ensure_symbol(c, init)
        c.ensure_compiled(init)
    info.finding_fields = False  # its subclasses may copy the fields from here on
    if kind == "class":
        _special_methods(c, info, decl)


def _special_methods(c, info, decl) -> None:
    """Compile the special methods Python calls on its own (list ==, list.index, dict
    keys, repr of a list...) and record them on the class, so its run-time class has them."""
    from ember.frontend.userfuncs import ensure_symbol
    from ember.mobile.program import SPECIAL_METHODS

    for name, arity in SPECIAL_METHODS.items():
        method = info.methods.get(name)
        if method is None or method.static or len(method.node.args) != arity:
            continue
        ensure_symbol(c, method)
        func = c.ensure_compiled(method)
        if func is not None or method.state == "compiling":
            decl.methods[name] = method.symbol


def is_namedtuple_class(cls) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def namedtuple_info(c, cls):
    """The ClassInfo of a namedtuple class made by a call (`collections.namedtuple`,
    `typing.NamedTuple("P", [...])`), placed at the line that makes it."""
    from ember.frontend.compiler import ClassInfo, _scope_fn
    from ember.frontend.meta import PyScope
    span = _creation_span(cls)
    info = ClassInfo(cls.__qualname__, A.ClassDef(span, cls.__name__, [], [], []),
                     span.source, PyScope(_scope_fn(cls), c), cls)
    info.reflected = True
    return info


def _reflected_fields(c, info, decl) -> None:
    """Fields of a reflected namedtuple: types from its `__annotations__` (a field without
    one is a Tensor, TorchScript's rule), defaults from `_field_defaults`."""
    from ember.frontend.module_view import annotation_type
    cls, span = info.pyclass, info.node.span
    anns = getattr(cls, "__annotations__", None) or {}
    for name in cls._fields:
        t = annotation_type(anns[name]) if name in anns else T.TENSOR
        if t is None:
            c.report(UnsupportedError(f"field '{name}' of namedtuple {cls.__name__} is "
                                      f"annotated {anns[name]!r}, a type ember cannot compile",
                                      span))
            t = ERROR
        decl.fields.append((name, t))
    for name, value in getattr(cls, "_field_defaults", {}).items():
        if not _is_literal(A.Constant(span, value)):
            c.report(UnsupportedError(f"the default of field '{name}' of namedtuple "
                                      f"{cls.__name__} must be a literal constant", span))
        info.defaults[name] = A.Constant(span, value)


def _creation_span(cls):
    """The span of `NAME = namedtuple(...)` in cls's module (else of the module's first
    line, or of a one-line stand-in source)."""
    import linecache
    import re
    import sys

    from ember.errors import Source, Span
    mod = sys.modules.get(cls.__module__)
    filename = getattr(mod, "__file__", None) or f"<namedtuple {cls.__name__}>"
    lines = linecache.getlines(filename) if mod is not None else []
    pattern = re.compile(rf"\b{re.escape(cls.__name__)}\s*=\s*[\w.]*(?:namedtuple|NamedTuple)\(")
    lineno, text = 1, (lines[0] if lines else f"{cls.__name__}\n")
    for i, line in enumerate(lines):
        if pattern.search(line):
            lineno, text = i + 1, line
            break
    source = Source(filename, text, lineno)
    stripped = text.rstrip("\n")
    col = len(stripped) - len(stripped.lstrip()) + 1
    return Span(source, lineno, col, lineno, len(stripped) + 1)


def add_method(c, info, stmt, source, scope, key=None):
    """Record method `stmt` of class `info` (under `key`, its name by default). A
    @classmethod is a static method whose first parameter names the class at compile time
    (the class the method is compiled for: a subclass's copy gets the subclass)."""
    import dataclasses
    method = FuncInfo(f"{info.name}.{stmt.name}", stmt, source, scope, owner=info)
    names = [decorator_name(d) for d in stmt.decorators]
    method.static = "staticmethod" in names or "classmethod" in names
    method.property = "property" in names
    if "classmethod" in names:
        method.cls_param = stmt.args[0].arg
        method.node = dataclasses.replace(stmt, args=stmt.args[1:])
    info.methods[key or stmt.name] = method
    return method


def _method_decorators_ok(c, stmt) -> bool:
    """Report the method decorators that change how a method is reached (@classmethod,
    property setters), at the method, before any use of it; False if there is one."""
    for d in stmt.decorators:
        name = decorator_name(d)
        if name == "classmethod" and (not stmt.args or stmt.args[0].kind != "normal"):
            c.report(UnsupportedError(
                f"the @classmethod '{stmt.name}' needs a first parameter for the class (cls)",
                stmt.name_span or stmt.span))
            return False
        if name.endswith((".setter", ".deleter")):
            c.report(UnsupportedError(
                f"property setters and deleters are not supported (@{name}); assign a field "
                "or call a method instead", d.span))
            return False
    return True


_NOT_CONST = object()


def _class_constant(stmt):
    """(name, value) for `NAME = <literal>` / `NAME: Final = <literal>` in a class body."""
    from ember.frontend.compiler import _NO, _literal
    if isinstance(stmt, A.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], A.Name):
        target = stmt.targets[0]
    elif isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name) and \
            stmt.value is not None and _is_final(stmt.annotation):
        target = stmt.target
    else:
        return _NOT_CONST
    value = _literal(stmt.value)
    return _NOT_CONST if value is _NO else (target.id, value)


def init_var_type(ann):
    """T of a dataclass's `InitVar[T]` annotation (a parameter of __init__ and
    __post_init__, not a field), or None."""
    if not isinstance(ann, A.Subscript):
        return None
    head = ann.value
    name = head.id if isinstance(head, A.Name) else getattr(head, "attr", None)
    return ann.slice if name == "InitVar" else None


def _is_literal(node) -> bool:
    from ember.frontend.compiler import _NO, _literal
    return _literal(node) is not _NO


def _is_final(ann) -> bool:
    """`Final` / `Final[T]` / `ClassVar[T]`: a class-level constant, not a field."""
    head = ann.value if isinstance(ann, A.Subscript) else ann
    name = head.id if isinstance(head, A.Name) else getattr(head, "attr", None)
    return name in ("Final", "ClassVar")


def _kind(c, info):
    node = info.node
    bases = node.bases
    if not bases:
        return "class"
    if len(bases) == 1:
        b = bases[0]
        from ember.frontend.enums import base_kind
        enum_kind = base_kind(info, b)
        if enum_kind == "enum":
            return "enum"
        if enum_kind is not None:
            c.report(UnsupportedError(f"{enum_kind} classes are not supported (their members "
                                      "are also ints or strs); derive from Enum", b.span))
            return None
        name = b.id if isinstance(b, A.Name) else (b.attr if isinstance(b, A.Attribute) else None)
        meta = info.scope.lookup(b.id) if isinstance(b, A.Name) else None
        if name == "NamedTuple" or (isinstance(meta, MTypeName) and meta.name == "NamedTuple"):
            return "namedtuple"
        if name == "object":
            return "class"
    from ember.frontend.inherit import base_class
    base = base_class(c, info)
    if base is not None:
        info.base = base
        return "class"
    if len(bases) == 1:
        c.report(UnsupportedError("a class may inherit from one user class, NamedTuple or "
                                  "an exception class only", bases[0].span))
    return None


def exception_meta(info):
    """MException("MyError:ValueError") for `class MyError(ValueError)` (a class whose one
    base is an exception class, builtin or user); None for other classes. Its body may
    hold a docstring, `pass`, field annotations and an `__init__` setting fields
    (frontend/exc_fields.py): instances are Python's exceptions.""" 
    if info.reflected or len(info.node.bases) != 1 or info.kind == "error":
        return None
    cached = getattr(info, "exc_meta", False)
    if cached is not False:
        return cached
    info.exc_meta = None  # a class that names itself as its base is not an exception
    from ember.frontend.meta import MException
    b = info.node.bases[0]
    base = info.scope.lookup(b.id) if isinstance(b, A.Name) else None
    if not isinstance(base, MException):
        return None
    from ember.frontend.exc_fields import class_spec
    spec = class_spec(info, base)
    info.exc_meta = MException(f"{info.node.name}:{base.name}")
    info.exc_meta.init = spec
    return info.exc_meta


def _dummy_def(node):
    return A.FunctionDef(node.span, node.name, [], [A.Pass(node.span)])


# ----------------------------------------------------------------------------- use


def construct(em, info, node):
    decl = em.c.declare_class(info)
    if decl is None:
        from ember.frontend.function import Poison
        return Poison()
    if getattr(info, "enum", None) is not None:
        from ember.frontend.enums import lookup_call
        return lookup_call(em, info, node)
    ct = T.ClassType(decl.name)
    loc = em.loc(node)
    if info.kind == "namedtuple":
        return _construct_namedtuple(em, info, decl, node)
    obj = em.b.create("obj.new", [], [ct], loc=loc).result
    for fname, default in info.defaults.items():
        # `x: int = 0` in the class body: the value until __init__ assigns one.
        ftype = decl.field_type(fname)
        if not _is_literal(default):
            em.unsupported(f"the default of field '{fname}' must be a literal constant",
                           default.span)
            continue
        v = em.coerce(em.value(default, ftype), ftype, default.span, what=f"field '{fname}'")
        em.b.create("obj.set", [obj, v], attrs={"field": fname}, loc=loc)
    init = info.methods.get("__init__")
    if init is None:
        if node.args or node.keywords:
            return em.error(f"{decl.name}() takes no arguments", node.span)
        return obj
    from ember.frontend.userfuncs import call_user_function
    call_user_function(em, init, node, [obj])
    return obj


def _constant_display(d) -> bool:
    """A list, dict or tuple display whose elements are constants (or such displays)."""
    if isinstance(d, A.Constant):
        return True
    if isinstance(d, (A.List, A.Tuple)):
        return all(_constant_display(e) for e in d.elts)
    if isinstance(d, A.Dict):
        return all(k is not None and _constant_display(k) and _constant_display(v)
                   for k, v in zip(d.keys, d.values))
    return False


def _construct_namedtuple(em, info, decl, node):
    from ember.frontend.userfuncs import bind_arguments
    names = [n for n, _ in decl.fields]
    types = [t for _, t in decl.fields]
    defaults = []
    first_default = next((i for i, n in enumerate(names) if n in info.defaults), len(names))
    for n in names[first_default:]:
        d = info.defaults.get(n)
        if isinstance(d, A.Constant):
            defaults.append(d.value)
        elif _constant_display(d):  # y: List[int] = [1, 2]: a new one per construction
            defaults.append(d)
        else:
            return em.unsupported("NamedTuple defaults must be constants or lists, dicts "
                                  "and tuples of constants", node.span)
    args = bind_arguments(em, decl.name, names, types, defaults, [], node)
    if args is None:
        from ember.frontend.function import Poison
        return Poison()
    return em.b.create("obj.new", args, [T.ClassType(decl.name)], loc=em.loc(node)).result


def instance_attribute(em, obj, node):
    decl = em.c.module.classes.get(obj.type.name)
    info = _class_info(em, obj.type.name)
    t = decl.field_type(node.attr) if decl is not None else None
    if t is not None:
        return em.b.create("obj.get", [obj], [t], {"field": node.attr}, loc=em.loc(node)).result
    if info is not None and node.attr in info.methods:
        method = info.methods[node.attr]
        if method.property:  # obj.p of a @property: its getter, called
            from ember.frontend.userfuncs import call_user_function
            return call_user_function(em, method, node, [obj], values=[])
        return MBoundMethod(obj, node.attr, node.span)
    if info is not None and node.attr in info.constants:
        return MConst(info.constants[node.attr])
    if info is not None and info.kind == "module":
        from ember.frontend.module_exprs import missing_module_attribute
        return missing_module_attribute(em, info, node)
    return em.error(f"'{obj.type.name}' object has no attribute '{node.attr}'", node.span,
                    NameResolutionError)


def instance_attribute_set(em, obj, node, value):
    t = obj.type
    if isinstance(t, ErrorType) or isinstance(value.type, ErrorType):
        return
    if not isinstance(t, T.ClassType):
        em.error(f"cannot set attributes of {show(t)}", node.span)
        return
    decl = em.c.module.classes.get(t.name)
    info = _class_info(em, t.name)
    if getattr(info, "enum", None) is not None:
        from ember.frontend.enums import refuse_set
        refuse_set(em, info, node.attr, node)
        return
    if getattr(info, "frozen", False) and em.info is not info.methods.get("__init__"):
        em.error(f"cannot assign to field '{node.attr}' of the frozen dataclass '{t.name}'",
                 node.span, TypeCheckError)
        return
    if decl.kind == "namedtuple":
        em.error(f"'{t.name}' is a NamedTuple: its fields cannot be assigned", node.span)
        return
    ft = decl.field_type(node.attr)
    method = info.methods.get(node.attr) if info is not None and ft is None else None
    if method is not None and method.property:
        em.unsupported(f"'{node.attr}' is a @property of '{t.name}' and cannot be assigned "
                       "(property setters are not supported)", node.span)
        return
    if ft is None and decl.kind == "module":
        em.error(f"{info.label} has no attribute '{node.attr}' to assign (a scripted "
                 "module's attributes are the ones its instance has)", node.span,
                 NameResolutionError)
        return
    if ft is None:
        in_init = info is not None and em.info is info.methods.get("__init__")
        if not in_init:
            em.error(f"'{t.name}' object has no attribute '{node.attr}' (fields are created "
                     "in __init__)", node.span, NameResolutionError)
            return
        ft = value.type
        if ft == T.NONE:
            em.error(f"field '{node.attr}' is first assigned None; annotate it "
                     f"(self.{node.attr}: Optional[int] = None)", node.span, TypeCheckError)
            return
        decl.fields.append((node.attr, ft))
    value = em.coerce(value, ft, node.span, what=f"field '{node.attr}'")
    em.b.create("obj.set", [obj, value], attrs={"field": node.attr}, loc=em.loc(node))


def call_class_method(em, recv, name, node):
    info = _class_info(em, recv.type.name)
    method = info.methods.get(name) if info is not None else None
    if method is None:
        return em.error(f"'{recv.type.name}' object has no method '{name}'", node.span,
                        NameResolutionError)
    from ember.frontend.userfuncs import call_user_function
    return call_user_function(em, method, node, [] if method.static else [recv])


def dunder(em, t, name):
    """The FuncInfo of method `name` (`__add__`) of the user class of type t, or None."""
    if not isinstance(t, T.ClassType):
        return None
    info = _class_info(em, t.name)
    if info is None or info.kind != "class":
        return None
    return info.methods.get(name)


def call_dunder(em, method, recv, args, node):
    """recv.method(*args) for a special method found by `dunder`."""
    from ember.frontend.userfuncs import call_user_function
    return call_user_function(em, method, node, [recv], values=list(args))


def class_attribute(em, meta, node):
    """`Class.NAME` (a constant of the class body) or `Class.method` (a static method)."""
    info = meta.info
    if em.c.declare_class(info) is None:
        from ember.frontend.function import Poison
        return Poison()
    if getattr(info, "enum", None) is not None:
        from ember.frontend.enums import member
        m = member(em, info, node.attr, node)
        if m is not None:
            return m
        if node.attr == "__members__":  # name -> member, aliases included
            from ember.frontend.enums import members_dict
            return members_dict(em, info, node)
        if node.attr not in info.methods:
            return em.error(f"Enum '{info.node.name}' has no member '{node.attr}' (its "
                            f"members: {', '.join(info.enum.symbols)})", node.span,
                            NameResolutionError)
    if node.attr in info.constants:
        return MConst(info.constants[node.attr])
    method = info.methods.get(node.attr)
    if method is not None and method.static:
        return MFunction(method)
    if method is not None:
        return em.unsupported(f"'{info.name}.{node.attr}' is an instance method; call it on an "
                              f"object (obj.{node.attr}(...))", node.span)
    return em.error(f"class '{info.name}' has no constant or static method '{node.attr}' "
                    "(class attributes must be literal constants)", node.span,
                    NameResolutionError)


def _class_info(em, decl_name):
    return em.c.class_by_decl.get(decl_name)


__all__ = ["declare_class", "construct", "instance_attribute", "instance_attribute_set",
           "call_class_method", "class_attribute", "ERROR"]
