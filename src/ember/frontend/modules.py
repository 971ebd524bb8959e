"""Scripting module instances: one class per module type, one constant object per instance.

`compile_module(obj)` compiles a module's `forward` and exported methods
(@torch.jit.export / @ember.export), and what they reach. Each distinct module
type (its class, field types and constants) becomes a ClassDecl of kind
"module"; its methods compile with `self` of that type. Each module instance
becomes a constant object (`object @self.fc1 : !Linear = {...}`) holding its
tensors (module tensor constants, tied tensors stored once), submodules and
plain attributes. Entry points are wrapper functions (`forward(x)`) that load
`@self` and call its method, so a loaded artifact needs no Python object.

Attributes assigned by some compiled method are mutable state; tensors whose
fields no method assigns keep their exact dtype and shape in the field type.
"""

from __future__ import annotations

from functools import partial

from ember.errors import UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import ClassInfo, Compiler, FuncInfo
from ember.frontend.meta import PyScope
from ember.frontend.module_view import (
    annotation_type, is_base_class, is_module, tensor_type, value_type, view_of,
)
from ember.frontend.module_source import MethodInfo, class_source
from ember.frontend.overloads import OverloadInfo
from ember.ir import ClassDecl, FuncOp, IRBuilder, Loc, SymbolRef
from ember.ir import types as T

_EXPORT_DECORATORS = {"torch.jit.export", "jit.export", "ember.export", "export", "nn.export",
                      "ember.nn.export"}


class ModuleTable:
    """The module types and objects of one compilation."""

    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.cache: dict = {}
        """Shared with view_of: torch tensors and converted layers by id."""
        self._views: dict = {}
        self._info_of: dict = {}
        self._info_by_key: dict = {}
        self._objects: dict = {}
        self._arrays: dict = {}
        self._keep: list = []
        self._methods: dict = {}

    # -- views and types -----------------------------------------------------------------------
    def view(self, obj):
        v = self._views.get(id(obj))
        if v is None:
            v = self._views[id(obj)] = view_of(obj, self.cache)
            self._keep.append(obj)
        return v

    def class_info(self, obj) -> ClassInfo:
        """The ClassInfo (with its declared ClassDecl) of module instance obj's type."""
        info = self._info_of.get(id(obj))
        if info is not None:
            return info
        view = self.view(obj)
        mutable = self.mutated_attributes(view.pyclass)
        hints = self.annotations(view.pyclass, set(view.attrs))
        fields, opaque, items = [], {}, []
        for name, arr in view.tensors.items():
            fields.append((name, _tensor_field_type(arr, name in mutable)))
        for key, sub in view.submodules.items():
            fname = _field_name(key, len(items)) if view.container else key
            t = T.NONE if sub is None else T.ClassType(self._sub_info(view, key, sub).decl.name)
            fields.append((fname, t))
            items.append((key, fname))
        for name, v in view.attrs.items():
            t = value_type(v, hints.get(name)) or self._enum_type(v)
            if t is None:
                opaque[name] = f"a {type(v).__name__} value"
                continue
            fields.append((name, _widen_if_mutable(t, name in mutable)))
        key = (view.pyclass, view.container, tuple((n, str(t)) for n, t in fields),
               repr(sorted(view.constants.items())), tuple(items))
        info = self._info_by_key.get(key)
        if info is None:
            info = self._declare(view, fields, opaque, items)
            self._info_by_key[key] = info
        self._info_of[id(obj)] = info
        return info

    def info_of_class(self, pyclass):
        """A ClassInfo of module class `pyclass` (its static methods and constants are the
        same in each), or None if no instance of it is compiled."""
        for info in reversed(list(self._info_by_key.values())):
            if info.pyclass is pyclass:
                return info
        return None

    def _enum_type(self, v):
        """The type of a module attribute holding a Python Enum's member (its script Enum
        class), or None."""
        info = self._enum_info(v)
        return None if info is None else T.ClassType(info.decl.name)

    def _enum_info(self, v):
        import enum
        if not isinstance(v, enum.Enum):
            return None
        meta = self.c.class_meta(type(v))
        if meta is None or self.c.declare_class(meta.info) is None:
            return None
        return meta.info if getattr(meta.info, "enum", None) is not None else None

    def _sub_info(self, view, key, sub) -> ClassInfo:
        """class_info(sub); an error without a place is placed at `self.key = ...` in the
        parent's __init__ (or at the parent's class line)."""
        try:
            return self.class_info(sub)
        except UnsupportedError as e:
            if e.span is not None:
                raise
            span = _assignment_span(view.pyclass, key)
            raise UnsupportedError(f"{e.message} (attribute '{key}' of {view.label})",
                                   span) from None

    def _declare(self, view, fields, opaque, items) -> ClassInfo:
        c = self.c
        name = c.unique_symbol(view.pyclass.__qualname__.replace("<locals>.", ""))
        ks = class_source(view.pyclass)
        node = ks.class_def()
        info = ClassInfo(name, node, ks.source, PyScope(_any_function(view.pyclass), c),
                         view.pyclass)
        info.kind = "module"
        info.decl = ClassDecl(name, fields, "module", Loc.of_span(node.span))
        info.constants = dict(self.class_constants(view.pyclass), **view.constants,
                              training=False)
        info.opaque = opaque
        info.label = view.label
        info.container = view.container
        info.items = items
        c.module.add_class(info.decl)
        c.class_by_decl[name] = info
        for mname, (fn, owner_src, static) in self.methods(view.pyclass).items():
            m = MethodInfo(f"{name}.{mname}", owner_src, mname, PyScope(fn, c), fn, info)
            m.static = bool(static)
            if static == "class":  # a @classmethod: its first parameter names the class
                m.cls_param = fn.__code__.co_varnames[0] if fn.__code__.co_argcount else None
            m.decorators = owner_src.decorators(mname)
            m.overloads = [OverloadInfo(m, i, partial(owner_src.overload, mname, i))
                           for i in range(len(owner_src.overloads.get(mname, ())))]
            info.methods[mname] = m
        return info

    # -- methods ---------------------------------------------------------------------------------
    def methods(self, pyclass) -> dict:
        """name -> (function, ClassSource of the class defining it, "static", "class" (a
        @classmethod) or "") over the class's
        MRO, stopping at the library base classes (their methods are Python-only)."""
        out = self._methods.get(pyclass)
        if out is not None:
            return out
        out = {}
        for cls in pyclass.__mro__:
            if is_base_class(cls):
                continue
            defs = None
            for name, attr in vars(cls).items():
                fn = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
                if name in out or not hasattr(fn, "__code__"):
                    continue
                if defs is None:
                    defs = class_source(cls)
                if name in defs.defs:
                    out[name] = (fn, defs, "static" if isinstance(attr, staticmethod) else
                                 "class" if isinstance(attr, classmethod) else "")
        self._methods[pyclass] = out
        return out

    def annotations(self, pyclass, wanted) -> dict:
        """Attribute name -> IR type from `x: T` in class bodies and `self.x: T = ...` in
        __init__ (how TorchScript types empty lists and None attributes)."""
        out = {}
        for cls in reversed(pyclass.__mro__):
            if is_base_class(cls):
                continue
            for name, ann in getattr(cls, "__annotations__", {}).items():
                t = annotation_type(ann) if not isinstance(ann, str) else None
                if t is not None:
                    out[name] = t
            out.update(self._source_annotations(cls, wanted))
        return out

    def _source_annotations(self, cls, wanted) -> dict:
        try:
            ks = class_source(cls)
        except UnsupportedError:
            return {}
        found = ks.annotations(wanted)
        if not found:
            return {}
        out, probe = {}, None
        for name, ann in found:
            if isinstance(ann, str):
                out[name] = {"int": T.I64, "float": T.F64, "bool": T.BOOL, "str": T.STR}[ann]
                continue
            if probe is None:
                probe = self._annotation_probe(cls, ks)
            n_errors = len(self.c.errors)
            t = probe.ann.resolve(ann)
            del self.c.errors[n_errors:]  # an annotation ember cannot read: use the value
            if t is not None and not _is_error(t):
                out[name] = t
        return out

    def _annotation_probe(self, cls, ks):
        """An emitter in the class's scope, to resolve annotations with."""
        from ember.frontend.function import FunctionEmitter
        span = ks.class_def().span
        return FunctionEmitter(self.c, FuncInfo(cls.__qualname__, A.FunctionDef(
            span, cls.__name__, [], [A.Pass(span)]), ks.source,
            PyScope(_any_function(cls), self.c)))

    def class_constants(self, pyclass) -> dict:
        """Literal constants of the class bodies (`K = 3`, `K: Final[int] = 3`)."""
        out = {}
        for cls in reversed(pyclass.__mro__):
            if not is_base_class(cls):
                try:
                    out.update(class_source(cls).constants())
                except UnsupportedError:
                    continue
        return out

    def mutated_attributes(self, pyclass) -> set:
        """Attributes some method other than __init__ assigns (self.x = ..., self.x += ...)."""
        names = set()
        for cls in pyclass.__mro__:
            if not is_base_class(cls):
                try:
                    names |= class_source(cls).assigned_attributes()
                except UnsupportedError:
                    continue
        return names

    # -- objects ---------------------------------------------------------------------------------
    def object_of(self, obj, path: str = "self") -> str:
        """The symbol of the constant object for instance obj (built once per instance)."""
        sym = self._objects.get(id(obj))
        if sym is not None:
            return sym
        info = self.class_info(obj)
        view = self.view(obj)
        values = []
        for (fname, ftype) in info.decl.fields:
            values.append(self._field_value(view, info, fname, path))
        sym = _unique(self.c.module, path)
        self.c.module.add_object(sym, info.decl.name, values)
        self._objects[id(obj)] = sym
        return sym

    def _field_value(self, view, info, fname, path):
        if fname in view.tensors:
            arr = view.tensors[fname]
            return None if arr is None else self.tensor_symbol(arr, f"{path}.{fname}")
        key = next((k for k, f in info.items if f == fname), None)
        if key is not None:
            sub = view.submodules[key]
            return None if sub is None else SymbolRef(self.object_of(sub, f"{path}.{fname}"))
        return _plain(view.attrs[fname], self, f"{path}.{fname}")

    def tensor_symbol(self, arr, path: str) -> SymbolRef:
        sym = self._arrays.get(id(arr))
        if sym is None:
            sym = _unique(self.c.module, path)
            self.c.module.add_tensor(sym, arr)
            self._arrays[id(arr)] = sym
            self._keep.append(arr)
        return SymbolRef(sym)


def _plain(v, table, path):
    import numpy as np
    if isinstance(v, np.ndarray):
        return table.tensor_symbol(v, path)
    enum_info = table._enum_info(v)
    if enum_info is not None:  # an Enum member: the script's constant object
        return SymbolRef(enum_info.enum.symbols[v.name])
    if isinstance(v, list):
        return [_plain(x, table, f"{path}.{i}") for i, x in enumerate(v)]
    if isinstance(v, tuple):
        return tuple(_plain(x, table, f"{path}.{i}") for i, x in enumerate(v))
    if isinstance(v, dict):
        return {k: _plain(x, table, f"{path}.{k}") for k, x in v.items()}
    return v


def _unique(module, name: str) -> str:
    import re
    base = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    sym, k = base, 1
    while sym in module.tensors or sym in module.objects:
        k += 1
        sym = f"{base}.{k}"
    return sym


def _is_error(t) -> bool:
    """t is or holds the error type (an annotation naming something ember cannot type)."""
    return "<error>" in str(t)


def _field_name(key, i: int) -> str:
    """A container item's field name: the key if it is an identifier, else _i."""
    return key if isinstance(key, str) and key.isidentifier() and not key.startswith("_") \
        else f"_{i}"


def _tensor_field_type(arr, mutable: bool) -> T.Type:
    if mutable:
        return T.OptionalType(T.TENSOR) if arr is None else T.TENSOR
    return T.NONE if arr is None else tensor_type(arr)


def _widen_if_mutable(t, mutable: bool):
    from ember.frontend.function import erase_tensor_info
    return erase_tensor_info(t) if mutable else t




def _assignment_span(pyclass, attr):
    """The span of `self.attr = ...` in a class of pyclass's MRO, else of the class line;
    None without source."""
    for cls in pyclass.__mro__:
        if is_base_class(cls):
            continue
        try:
            span = class_source(cls).assignment_span(attr)
        except UnsupportedError:
            continue
        if span is not None:
            return span
    try:
        return class_source(pyclass).class_def().span
    except UnsupportedError:
        return None


def _any_function(cls):
    for klass in cls.__mro__:
        for v in vars(klass).values():
            f = getattr(v, "__func__", v)
            if hasattr(f, "__globals__"):
                return f
    raise UnsupportedError(f"module class {cls.__qualname__} defines no methods to compile")


# ----------------------------------------------------------------------------- entry points


def exported_methods(info) -> list[str]:
    """forward (if defined) then the methods decorated @torch.jit.export / @ember.export."""
    names = ["forward"] if "forward" in info.methods else []
    for name, m in info.methods.items():
        if name != "forward" and (_exported(m.pyfn) or any(
                d in _EXPORT_DECORATORS for d in m.decorators)):
            names.append(name)
    return names


def _exported(fn) -> bool:
    """ember.export / torch.jit.export mark the function object itself."""
    if getattr(fn, "__ember_export__", False):
        return True
    modifier = getattr(fn, "_torchscript_modifier", None)
    return modifier is not None and getattr(modifier, "name", "") == "EXPORT"


def compile_module(obj, methods=None):
    """(IR module, entry names) for a module instance; entries are named like the methods."""
    if not is_module(obj):
        raise UnsupportedError(f"{type(obj).__name__} is not an ember.nn or torch.nn module")
    c = Compiler()
    table = c.modules = ModuleTable(c)
    try:
        info = table.class_info(obj)
        root = table.object_of(obj)
    except UnsupportedError:
        raise
    names = list(methods) if methods else exported_methods(info)
    if not names:
        raise UnsupportedError(f"{info.label} has no forward() and no exported methods to "
                               "compile")
    from ember.frontend.userfuncs import ensure_symbol, signature_of
    for name in names:
        m = info.methods.get(name)
        if m is None:
            raise UnsupportedError(f"{info.label} has no method {name!r}")
        ensure_symbol(c, m)
        c.ensure_compiled(m)
    c.raise_errors()
    for name in names:
        m = info.methods[name]
        _entry_wrapper(c, name, m, signature_of(c, m), root)
    c.remember()
    return c.module, names


def _entry_wrapper(c, name, method, signature, root) -> None:
    """func @name(params...) { %self = const @root; return call @Class.method(%self, ...) }"""
    pnames, ptypes, defaults, _ = signature
    f = method.func
    sym = c.unique_symbol(name)
    loc = f.loc
    wrapper = FuncOp(sym, T.FunctionType(tuple(ptypes[1:]), f.type.ret), loc, pnames[1:],
                     defaults[-(len(pnames) - 1):] if len(pnames) > 1 and defaults else [])
    b = IRBuilder(wrapper.body, loc)
    self_v = b.const(SymbolRef(root), f.type.params[0], loc, name="self")
    r = b.create("call", [self_v] + list(wrapper.args), [f.type.ret],
                 {"callee": SymbolRef(method.symbol)}, loc=loc).result
    b.create("return", [r], loc=loc)
    c.module.add_func(wrapper)
    c.module.entries.append(sym)
    wrapper.attrs["qualname"] = f"{method.owner.label}.{name}"
