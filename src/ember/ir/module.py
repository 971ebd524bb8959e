"""The IR module: functions, class declarations and tensor constants, by symbol name."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ember.ir import types as T
from ember.ir.core import Loc
from ember.ir.ops import FuncOp


@dataclass(eq=False)
class ClassDecl:
    """A user class, NamedTuple or module type: ordered typed fields.

    `kind` is "class", "namedtuple", "module" or "exception". Methods are module
    functions named `<class>.<method>` whose first parameter is the object.
    """

    name: str
    fields: list[tuple[str, T.Type]]
    kind: str = "class"
    loc: Loc = field(default_factory=Loc.unknown)
    base: str | None = None
    """Name of the base class for exception classes (e.g. "ValueError")."""
    methods: dict[str, str] = field(default_factory=dict)
    """Special methods the run-time class defines (`__eq__`, `__hash__`, `__repr__`...,
    see ember.mobile.program.SPECIAL_METHODS): name -> function symbol. Python's own
    container operations (`==` of lists, `list.index`, dict keys, printing a list) call
    them. The functions stay in the module while the class does."""

    def field_index(self, name: str) -> int | None:
        for i, (n, _) in enumerate(self.fields):
            if n == name:
                return i
        return None

    def field_type(self, name: str) -> T.Type | None:
        i = self.field_index(name)
        return None if i is None else self.fields[i][1]


@dataclass(eq=False)
class TensorConst:
    """A named constant tensor (frozen weights), referenced by `const @name`."""

    name: str
    data: np.ndarray

    @property
    def type(self) -> T.TensorType:
        return T.TensorType(T.IR_DTYPE[self.data.dtype.name], tuple(self.data.shape))


@dataclass(eq=False)
class ObjectConst:
    """A constant object (a scripted module instance), referenced by `const @name`.

    `values` holds one constant per field of class `cls`, in field order: an int,
    float, str, bool or None, a SymbolRef to a tensor or to another object, or a
    list / tuple / dict of those (as the field's type says). Objects are mutable
    at run time: a method that sets a field changes the one shared instance.
    """

    name: str
    cls: str
    values: list

    @property
    def type(self) -> T.ClassType:
        return T.ClassType(self.cls)


class Module:
    """A compilation unit's IR: ordered functions, classes, tensors and objects."""

    def __init__(self):
        self.funcs: dict[str, FuncOp] = {}
        self.classes: dict[str, ClassDecl] = {}
        self.tensors: dict[str, TensorConst] = {}
        self.objects: dict[str, ObjectConst] = {}
        """Constant objects, each after the objects its fields refer to."""
        self.entries: list[str] = []
        """Functions that are public entry points (kept by DCE, exported by save)."""
        self.sources: dict[str, str] = {}
        """Full source text per file name, for files that do not exist on disk (a
        CompilationUnit string): run-time tracebacks quote their lines."""

    def add_func(self, f: FuncOp) -> FuncOp:
        if f.sym_name in self.funcs:
            raise ValueError(f"function @{f.sym_name} defined twice")
        self.funcs[f.sym_name] = f
        return f

    def remove_func(self, name: str) -> None:
        del self.funcs[name]

    def add_class(self, c: ClassDecl) -> ClassDecl:
        self.classes[c.name] = c
        return c

    def add_tensor(self, name: str, data: np.ndarray) -> TensorConst:
        data = np.asarray(data)
        if not data.flags.c_contiguous:  # (np.ascontiguousarray would make 0-d arrays 1-d)
            data = np.ascontiguousarray(data).reshape(data.shape)
        t = TensorConst(name, data)
        self.tensors[name] = t
        return t

    def add_object(self, name: str, cls: str, values: list) -> ObjectConst:
        if name in self.objects or name in self.tensors:
            raise ValueError(f"symbol @{name} defined twice")
        o = ObjectConst(name, cls, list(values))
        self.objects[name] = o
        return o

    def symbol_type(self, name: str) -> T.Type | None:
        """The type of `const @name`: a tensor constant's or an object's; None if unknown."""
        if name in self.tensors:
            return self.tensors[name].type
        if name in self.objects:
            return self.objects[name].type
        return None

    def walk(self):
        """Every op of every function, pre-order."""
        for f in list(self.funcs.values()):
            yield from f.walk()

    def __str__(self) -> str:
        from ember.ir.printer import print_module
        return print_module(self)
