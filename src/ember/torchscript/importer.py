"""Compiling an archive: its code files through ember's frontend (dialect.py rewrites the
printer's conventions, prelude.py gives its names their meaning) and its data.pkl module
objects as ember module instances (one ClassDecl of kind "module" per distinct module type,
one constant object per instance), so the result goes through the normal pipeline.

`compile_archive(archive) -> (ir.Module, entry names, Inventory)`.
"""

from __future__ import annotations

import numpy as np

from ember.errors import ArtifactError, CompileError, Source, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import ClassInfo, Compiler, FuncInfo, _literal, _NO
from ember.frontend.meta import MClass, MFunction
from ember.frontend.module_view import tensor_type, value_type
from ember.frontend.parser import parse_module
from ember.ir import ClassDecl, Loc, SymbolRef
from ember.ir import types as T
from ember.torchscript.dialect import dotted, field_name, rewrite_expr, rewrite_function
from ember.torchscript.prelude import ArchiveScope
from ember.torchscript.unpickle import Obj

_SKIPPED_BODY = ("__parameters__", "__buffers__")


class Inventory:
    """What an import compiled: entry methods, parameters (tensors of module objects),
    operators of the final program (filled by the caller), unsupported names."""

    def __init__(self):
        self.methods: list[str] = []
        self.tensors = 0
        self.parameters = 0
        self.unsupported: list = []


class _ClassCode:
    """One `class` of the archive's code: its declared attributes, constants and methods."""

    def __init__(self, qualname, node: A.ClassDef, source: Source):
        self.qualname, self.node, self.source = qualname, node, source
        self.is_module = any(isinstance(b, A.Name) and b.id == "Module" for b in node.bases)
        self.fields: list = []  # (attribute name, annotation node)
        self.constants: dict = {}
        self.methods: dict = {}
        """Method name -> its FunctionDef as printed (method() rewrites it, once)."""
        self._rewritten: dict = {}
        for s in node.body:
            self._member(s)

    def method(self, name: str) -> A.FunctionDef:
        fdef = self._rewritten.get(name)
        if fdef is None:
            fdef = rewrite_function(self.methods[name])
            if fdef.args and fdef.args[0].arg == "self":  # typed by its class already
                from ember.torchscript.dialect import _shallow
                fdef.args = [_shallow(fdef.args[0])] + fdef.args[1:]
                fdef.args[0].annotation = None
            self._rewritten[name] = fdef
        return fdef

    def _member(self, s):
        if isinstance(s, A.FunctionDef):
            self.methods[s.name] = s
        elif isinstance(s, A.AnnAssign) and isinstance(s.target, A.Name):
            ann = s.annotation
            if s.value is not None:
                value = _literal(s.value)
                if value is not _NO:
                    self.constants[s.target.id] = value
                return
            self.fields.append((s.target.id, rewrite_expr(ann)))
        elif isinstance(s, A.Assign) and len(s.targets) == 1:
            t = s.targets[0]
            if isinstance(t, A.Name) and t.id in _SKIPPED_BODY:
                return
            if isinstance(t, A.Subscript) and dotted(t.value) == "__annotations__" and \
                    isinstance(t.slice, A.Constant) and isinstance(t.slice.value, str):
                self.fields.append((t.slice.value, rewrite_expr(s.value)))

    def assigned_attributes(self) -> set:
        from ember.torchscript.dialect import _walk
        out = set()
        for name, fdef in self.methods.items():
            if name == "__setstate__":
                continue
            for n in _walk(fdef.body):
                targets = n.targets if isinstance(n, A.Assign) else \
                    [n.target] if isinstance(n, (A.AugAssign, A.AnnAssign)) else []
                for t in targets:
                    if isinstance(t, A.Attribute) and isinstance(t.value, A.Name) and \
                            t.value.id == "self":
                        out.add(t.attr)
        return out


class _LazyInfo(FuncInfo):
    """A FuncInfo whose (rewritten) AST is made when the compiler first reads it: only the
    functions a model reaches are rewritten."""

    def __init__(self, name, make, source, scope, owner=None):
        self._make, self._node = make, None
        super().__init__(name, None, source, scope, None, owner)

    @property
    def node(self) -> A.FunctionDef:
        if self._node is None:
            self._node = self._make()
        return self._node

    @node.setter
    def node(self, value) -> None:
        if value is not None:
            self._node = value


class _Importer:
    def __init__(self, archive):
        self.archive = archive
        self.c = Compiler()
        self.table: dict = {}
        self.scope = ArchiveScope(self.c, self.table, archive.constants)
        self.classes: dict[str, _ClassCode] = {}
        self.infos: dict = {}
        self.info_of: dict = {}
        self.objects: dict = {}
        self.arrays: dict = {}
        self._probe = None
        self.inventory = Inventory()

    # -- code ---------------------------------------------------------------------------------
    def read_code(self):
        for modq, (entry, text) in sorted(self.archive.code.items()):
            filename = f"{self.archive.label}:{entry}"
            source = Source(filename, text)
            self.c.module.sources[filename] = text
            tree = parse_module(source)
            for node in tree.body:
                self._toplevel(modq, node, source)

    def _toplevel(self, modq, node, source):
        if isinstance(node, A.ClassDef):
            qual = f"{modq}.{node.name}"
            code = _ClassCode(qual, node, source)
            self.classes[qual] = code
            if not code.is_module:
                self.table[qual] = MClass(self._script_class(code))
        elif isinstance(node, A.FunctionDef):
            qual = f"{modq}.{node.name}"
            info = _LazyInfo(qual, lambda node=node: rewrite_function(node), source,
                             self.scope)
            self.table[qual] = MFunction(info)
        elif isinstance(node, A.Expr) and isinstance(node.value, A.Constant):
            pass
        elif isinstance(node, A.Pass):
            pass
        else:
            raise UnsupportedError("the archive's code has a top-level statement ember does "
                                   "not import (only classes and functions)", node.span)

    def _script_class(self, code: _ClassCode) -> ClassInfo:
        """A TorchScript class or NamedTuple: compiled as ember compiles a class statement."""
        node = A.ClassDef(code.node.span, code.qualname.rsplit(".", 1)[1],
                          [rewrite_expr(b) for b in code.node.bases], [],
                          [s if not isinstance(s, A.FunctionDef) else code.method(s.name)
                           for s in code.node.body if not _skipped(s)])
        return ClassInfo(_short(code.qualname), node, code.source, self.scope)

    # -- objects ------------------------------------------------------------------------------
    def probe(self):
        if self._probe is None:
            from ember.frontend.function import FunctionEmitter
            span = next(iter(self.classes.values())).node.span if self.classes else None
            src = next(iter(self.classes.values())).source if self.classes else Source("?", "")
            self._probe = FunctionEmitter(self.c, FuncInfo("<archive>", A.FunctionDef(
                span, "<archive>", [], [A.Pass(span)]), src, self.scope))
        return self._probe

    def resolve(self, ann):
        n = len(self.c.errors)
        t = self.probe().ann.resolve(ann)
        del self.c.errors[n:]
        return None if "<error>" in str(t) else t

    def class_code(self, obj: Obj) -> _ClassCode:
        code = self.classes.get(obj.qualname)
        if code is None and obj.qualname.startswith("__torch__.torch.classes."):
            raise UnsupportedError(f"the archive holds an object of the C++ class "
                                   f"{obj.qualname[len('__torch__.'):][:100]} (quantized "
                                   "packed parameters or another torch.classes extension), "
                                   "which ember cannot import")
        if code is None:
            raise ArtifactError(f"data.pkl holds an object of class {obj.qualname[:100]}, "
                                "which the archive's code does not define")
        return code

    def script_class_decl(self, obj: Obj):
        """The ClassDecl of an object of a TorchScript class (not a module)."""
        meta = self.table.get(obj.qualname)
        decl = self.c.declare_class(meta.info) if meta is not None else None
        if decl is None:
            self.c.raise_errors()
            raise UnsupportedError(f"an attribute holds an object of the TorchScript class "
                                   f"{obj.qualname[:100]}, which ember cannot declare",
                                   self.classes[obj.qualname].node.span)
        if not isinstance(obj.state, dict) or any(f not in obj.state for f, _ in decl.fields):
            raise ArtifactError(f"object of {obj.qualname[:100]} does not hold the fields "
                                f"its class declares ({', '.join(f for f, _ in decl.fields)})")
        return decl

    def state_of(self, obj: Obj, code: _ClassCode) -> dict:
        state = obj.state
        if isinstance(state, dict) and "__setstate__" not in code.methods:
            bad = next((k for k in state if not isinstance(k, str)), None)
            if bad is not None:
                raise ArtifactError(f"object of {obj.qualname[:100]} has an attribute named "
                                    f"by a {type(bad).__name__}, not a string")
            return state
        setter = code.methods.get("__setstate__")
        if setter is None:
            raise ArtifactError(f"object of {obj.qualname[:100]} has a state that is not a "
                                "dict of attributes")
        return _setstate_fields(setter, state, code)

    def _may_be_none(self, ann) -> bool:
        t = self.resolve(ann)
        return t is not None and (t == T.NONE or isinstance(t, T.OptionalType))

    def class_info(self, obj: Obj) -> ClassInfo:
        hit = self.info_of.get(id(obj))
        if hit is not None:
            return hit
        code = self.class_code(obj)
        state = self.state_of(obj, code)
        mutable = code.assigned_attributes()
        fields, opaque = [], {}
        for name, ann in code.fields:
            if name == "training":
                continue
            if name not in state and self._may_be_none(ann):
                state = dict(state, **{name: None})  # a __setstate__ left it unset
            if name not in state:
                raise ArtifactError(f"object of {obj.qualname[:100]} has no attribute "
                                    f"{name[:60]!r}, which its class declares")
            v = state[name]
            fname = field_name(name)
            if isinstance(v, Obj) and not self.class_code(v).is_module:
                fields.append((fname, T.ClassType(self.script_class_decl(v).name)))
            elif isinstance(v, Obj):
                fields.append((fname, T.ClassType(self.class_info(v).decl.name)))
            elif isinstance(v, np.ndarray):
                fields.append((fname, T.TENSOR if fname in mutable else tensor_type(v)))
            else:
                hint = self.resolve(ann)
                t = value_type(v, hint)
                if t is None:
                    opaque[fname] = f"a {type(v).__name__} value"
                    continue
                if fname in mutable:
                    from ember.frontend.function import erase_tensor_info
                    t = erase_tensor_info(hint if hint is not None else t)
                fields.append((fname, t))
        constants = dict(code.constants)
        constants["training"] = bool(state.get("training", False))
        key = (obj.qualname, tuple((n, str(t)) for n, t in fields), repr(sorted(
            constants.items())))
        info = self.infos.get(key)
        if info is None:
            info = self.infos[key] = self._declare(code, fields, opaque, constants)
        self.info_of[id(obj)] = info
        return info

    def _declare(self, code: _ClassCode, fields, opaque, constants) -> ClassInfo:
        c = self.c
        name = c.unique_symbol(_short(code.qualname))
        info = ClassInfo(name, code.node, code.source, self.scope)
        info.kind = "module"
        info.decl = ClassDecl(name, fields, "module", Loc.of_span(code.node.span))
        info.constants = constants
        info.opaque = opaque
        info.label = f"module {code.qualname}"
        info.container = None
        info.items = []
        c.module.add_class(info.decl)
        c.class_by_decl[name] = info
        for mname in code.methods:
            if mname in ("__setstate__", "__getstate__"):
                continue
            info.methods[mname] = _LazyInfo(f"{name}.{mname}",
                                            lambda m=mname: code.method(m), code.source,
                                            self.scope, info)
        return info

    def object_of(self, obj: Obj, path: str) -> str:
        sym = self.objects.get(id(obj))
        if sym is not None:
            return sym
        if not self.class_code(obj).is_module:
            decl = self.script_class_decl(obj)
            values = [self.value(obj.state[f], f"{path}.{f}") for f, _ in decl.fields]
            sym = _unique(self.c.module, path)
            self.c.module.add_object(sym, decl.name, values)
            self.objects[id(obj)] = sym
            return sym
        info = self.class_info(obj)
        code = self.classes[obj.qualname]
        state = self.state_of(obj, code)
        by_field = {field_name(k): v for k, v in state.items()}
        values = [self.value(by_field.get(f), f"{path}.{f}") for f, _ in info.decl.fields]
        sym = _unique(self.c.module, path)
        self.c.module.add_object(sym, info.decl.name, values)
        self.objects[id(obj)] = sym
        return sym

    def value(self, v, path):
        if isinstance(v, Obj):
            return SymbolRef(self.object_of(v, path))
        if isinstance(v, np.ndarray):
            return self.tensor_symbol(v, path)
        if isinstance(v, list):
            return [self.value(x, f"{path}.{i}") for i, x in enumerate(v)]
        if isinstance(v, tuple):
            return tuple(self.value(x, f"{path}.{i}") for i, x in enumerate(v))
        if isinstance(v, dict):
            return {k: self.value(x, f"{path}.{k}") for k, x in v.items()}
        return v

    def tensor_symbol(self, arr, path) -> SymbolRef:
        sym = self.arrays.get(id(arr))
        if sym is None:
            sym = _unique(self.c.module, path)
            self.c.module.add_tensor(sym, arr)
            self.arrays[id(arr)] = (sym, arr)
            self.inventory.tensors += 1
            self.inventory.parameters += int(arr.size)
            return SymbolRef(sym)
        return SymbolRef(sym[0])

    # -- entry points -------------------------------------------------------------------------
    def compile(self):
        from ember.frontend.modules import _entry_wrapper
        from ember.frontend.userfuncs import ensure_symbol, signature_of
        self.read_code()
        root = self.archive.root
        info = self.class_info(root)
        root_sym = self.object_of(root, "self")
        names = ["forward"] if "forward" in info.methods else []
        names += [m for m in info.methods if m != "forward" and not m.startswith("__")]
        if not names:
            raise UnsupportedError(f"{info.label} has no methods to compile")
        c = self.c
        for name in names:
            m = info.methods[name]
            ensure_symbol(c, m)
            c.ensure_compiled(m)
        self.inventory.unsupported = list(self.scope.unsupported)
        try:
            c.raise_errors()
        except CompileError as e:
            e.unsupported = list(self.scope.unsupported)
            raise
        for name in names:
            m = info.methods[name]
            _entry_wrapper(c, name, m, signature_of(c, m), root_sym)
        c.remember()
        self.inventory.methods = names
        return c.module, names


def _skipped(s) -> bool:
    return isinstance(s, A.Assign) and len(s.targets) == 1 and \
        isinstance(s.targets[0], A.Name) and s.targets[0].id in _SKIPPED_BODY


def _short(qualname: str) -> str:
    return qualname[len("__torch__."):] if qualname.startswith("__torch__.") else qualname


def _unique(module, name: str) -> str:
    import re
    base = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    sym, k = base, 1
    while sym in module.tensors or sym in module.objects:
        k += 1
        sym = f"{base}.{k}"
    return sym


def _setstate_fields(setter: A.FunctionDef, state, code) -> dict:
    """The attributes a __setstate__ of the plain form `self.a = state[0]` ... sets."""
    out = {}
    param = setter.args[1].arg if len(setter.args) == 2 else None
    for s in setter.body:
        if isinstance(s, A.Return) and (s.value is None or (isinstance(s.value, A.Constant)
                                                            and s.value.value is None)):
            continue
        if isinstance(s, A.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], A.Attribute) and \
                isinstance(s.targets[0].value, A.Name) and s.targets[0].value.id == "self":
            v = s.value
            if isinstance(v, A.Subscript) and isinstance(v.value, A.Name) and \
                    v.value.id == param and isinstance(v.slice, A.Constant) and \
                    type(v.slice.value) is int and isinstance(state, (tuple, list)) and \
                    0 <= v.slice.value < len(state):
                out[s.targets[0].attr] = state[v.slice.value]
                continue
            if isinstance(v, A.Constant):
                out[s.targets[0].attr] = v.value
                continue
        raise UnsupportedError(f"{code.qualname}.__setstate__ does more than copy its state "
                               "into attributes (self.x = state[i]); ember cannot run it at "
                               "import time", s.span)
    return out


def compile_archive(archive):
    """(ir.Module, entry names, Inventory) for an Archive."""
    imp = _Importer(archive)
    try:
        module, names = imp.compile()
    except CompileError:
        raise
    return module, names, imp.inventory
